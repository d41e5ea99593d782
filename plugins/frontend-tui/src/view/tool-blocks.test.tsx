import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { FinishedItem } from '../state/finished-item.js';
import { Paint } from '../terminal/paint.js';
import { FinishedView } from './finished-view.js';
import { LiveTools } from './live-tools.js';
import { PaintContext } from './paint-context.js';

const strip = (s: string | undefined): string => (s ?? '').replace(/\u001B\[[0-9;]*m/g, '');
const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
type ToolItem = Extract<FinishedItem, { kind: 'tool' }>;
const tool = (item: Partial<ToolItem>): ToolItem => ({ kind: 'tool', id: 1, title: 'read_file src/a.ts', end: 'completed', outcome: {}, ...item });
const drawn = (item: ToolItem, color = false): string =>
  render(
    <PaintContext.Provider value={new Paint(color)}>
      <FinishedView item={item} width={60} showThinking={false} />
    </PaintContext.Provider>,
  ).lastFrame() ?? '';

describe('tool blocks', () => {
  it('spin with the elapsed time while a call runs, and say when it waits', async () => {
    const startedAt = Date.now() - 2500;
    const ui = render(
      <LiveTools
        tools={[
          { toolCallId: '3:a', title: 'shell npm test', status: 'in_progress', startedAt },
          { toolCallId: '3:b', title: 'shell rm -rf build', status: 'pending', startedAt },
        ]}
        asking={[]}
        width={60}
        max={5}
      />,
    );
    const first = strip(ui.lastFrame());
    expect(first).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] shell npm test \(2\.\ds\) running$/m);
    expect(first).toContain('shell rm -rf build');
    expect(first).toContain('waiting');
    await tick(250);
    expect(strip(ui.lastFrame())).not.toBe(first);
    ui.unmount();
  });

  it('say when a call waits for the person', () => {
    const tools = [{ toolCallId: '3:a', title: 'shell rm -rf build', status: 'in_progress' as const, startedAt: Date.now() }];
    expect(strip(render(<LiveTools tools={tools} asking={['3:a']} width={60} max={5} />).lastFrame())).toContain('shell rm -rf build (0.0s) waiting for your answer');
  });

  it('list only the newest calls when many run', () => {
    const tools = Array.from({ length: 8 }, (_, i) => ({ toolCallId: `${i}`, title: `read_file f${i}`, status: 'in_progress' as const, startedAt: Date.now() }));
    const frame = strip(render(<LiveTools tools={tools} asking={[]} width={60} max={5} />).lastFrame());
    expect(frame).toContain('3 more calls');
    expect(frame).toContain('read_file f7');
    expect(frame).not.toContain('read_file f2');
  });

  it('show a finished result folded past six lines', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const frame = strip(drawn(tool({ outcome: { text }, seconds: 0.4 })));
    expect(frame).toContain('✓ read_file src/a.ts (0.4s)');
    expect(frame).toContain('⎿ line 1');
    expect(frame).toContain('line 6');
    expect(frame).not.toContain('line 7');
    expect(frame).toContain('… 4 more lines');
  });

  it('show an edit as a coloured diff', () => {
    const diff = { path: '/w/a.ts', oldText: 'a\nlet x = 1;\nb\n', newText: 'a\nconst x = 1;\nb\n' };
    const colored = drawn(tool({ title: 'edit_file a.ts', outcome: { diff } }), true);
    expect(colored).toMatch(/\u001B\[31m- (\u001B\[[0-9;]*m)*let x = 1;/);
    expect(colored).toMatch(/\u001B\[32m\+ (\u001B\[[0-9;]*m)*const x = 1;/);
    const frame = strip(colored);
    expect(frame).toMatch(/⎿ {3}a\n/);
    expect(frame).toContain('- let x = 1;');
    expect(frame).toContain('+ const x = 1;');
  });

  it('show a new file as added lines', () => {
    const frame = strip(drawn(tool({ title: 'write_file b.ts', outcome: { diff: { path: '/w/b.ts', newText: 'one\ntwo\n' } } })));
    expect(frame).toContain('+ one');
    expect(frame).toContain('+ two');
  });

  it("show a failure as its envelope's code and remediation", () => {
    const frame = strip(drawn(tool({ title: 'shell npm test', end: 'failed', outcome: { envelope: { code: 'SHELL_TIMEOUT', remediation: 'The command ran past 120 s; run a narrower test.' } } })));
    expect(frame).toContain('✗ shell npm test');
    expect(frame).toContain('⎿ SHELL_TIMEOUT The command ran past 120 s; run a narrower\n');
    expect(frame).toMatch(/\n {4}test\.$/);
  });

  it('mark a denied call and one cut short by the end of its turn', () => {
    expect(strip(drawn(tool({ end: 'denied', outcome: { envelope: { code: 'CONFIRMATION_REJECTED', remediation: 'The person said no.' } } })))).toContain('⊘ read_file src/a.ts denied');
    expect(strip(drawn(tool({ end: 'interrupted' })))).toContain('■ read_file src/a.ts interrupted');
  });
});
