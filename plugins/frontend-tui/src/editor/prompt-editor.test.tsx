import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { LOCAL_COMMANDS } from '../commands/local-commands.js';
import { KeyRouterProvider } from '../view/key-router.js';
import { PromptEditor, type PromptEditorProps } from './prompt-editor.js';

const tick = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const strip = (s: string | undefined): string => (s ?? '').replace(/\u001B\[[0-9;]*m/g, '');

/** The editor, rendered and given time to mount its key handler (keys written before that are lost). */
async function editor(overrides: Partial<PromptEditorProps> = {}) {
  const props: PromptEditorProps = {
    width: 60,
    maxLines: 6,
    history: [],
    commands: [...LOCAL_COMMANDS, { name: 'tools', description: 'List the tools' }, { name: 'title', description: 'Set the title', hint: 'the new title' }],
    busy: false,
    active: true,
    onSubmit: vi.fn(() => true),
    onQuit: vi.fn(),
    onCancelTurn: vi.fn(),
    onToggleThinking: vi.fn(),
    completeFiles: vi.fn(async () => []),
    ...overrides,
  };
  const ui = render(
    <KeyRouterProvider>
      <PromptEditor {...props} />
    </KeyRouterProvider>,
  );
  await tick();
  return { props, ui };
}

describe('PromptEditor', () => {
  it('shows what is typed and sends it with Enter, then is empty again', async () => {
    const { props, ui } = await editor();
    expect(strip(ui.lastFrame())).toContain('Ask anything');
    ui.stdin.write('hello');
    await tick();
    expect(strip(ui.lastFrame())).toContain('› hello');
    ui.stdin.write('\r');
    await tick();
    expect(props.onSubmit).toHaveBeenCalledWith('hello');
    expect(strip(ui.lastFrame())).toContain('Ask anything');
    ui.unmount();
  });

  it('keeps the text when it could not be sent', async () => {
    const { ui } = await editor({ onSubmit: vi.fn(() => false) });
    ui.stdin.write('wait');
    await tick();
    ui.stdin.write('\r');
    await tick();
    expect(strip(ui.lastFrame())).toContain('› wait');
    ui.unmount();
  });

  it('breaks the line on \\ then Enter, showing both lines', async () => {
    const { props, ui } = await editor();
    for (const k of ['one', '\\', '\r', 'two']) {
      ui.stdin.write(k);
      await tick();
    }
    expect(strip(ui.lastFrame())).toMatch(/› one\n\s+two/);
    expect(props.onSubmit).not.toHaveBeenCalled();
    ui.unmount();
  });

  it('lists the commands when / is typed, and Tab completes the one chosen', async () => {
    const { ui } = await editor();
    ui.stdin.write('/');
    await tick();
    const menu = strip(ui.lastFrame());
    expect(menu).toContain('/help');
    expect(menu).toContain('2 more');
    ui.stdin.write('t');
    await tick();
    expect(strip(ui.lastFrame())).not.toContain('/help');
    expect(strip(ui.lastFrame())).toContain('/tools');
    ui.stdin.write('i');
    await tick();
    ui.stdin.write('\t');
    await tick();
    expect(strip(ui.lastFrame())).toContain('› /title ');
    ui.unmount();
  });

  it('runs a command that needs no input when it is chosen with Enter, and waits for the input of one that does', async () => {
    const { props, ui } = await editor();
    for (const k of ['/', 'to', '\r']) {
      ui.stdin.write(k);
      await tick();
    }
    expect(props.onSubmit).toHaveBeenCalledWith('/tools');
    for (const k of ['/', 'res', '\r']) {
      ui.stdin.write(k);
      await tick();
    }
    expect(props.onSubmit).toHaveBeenLastCalledWith('/resume');
    for (const k of ['/', 'tit', '\r']) {
      ui.stdin.write(k);
      await tick();
    }
    expect(props.onSubmit).toHaveBeenCalledTimes(2);
    expect(strip(ui.lastFrame())).toContain('› /title ');
    ui.unmount();
  });

  it('completes @paths from the workspace: folders keep completing, Tab accepts', async () => {
    const completeFiles = vi.fn(async (prefix: string) => (prefix === 'src/' ? ['src/a.ts', 'src/b.ts'] : ['src/', 'README.md']));
    const { ui } = await editor({ completeFiles });
    ui.stdin.write('read @');
    await tick();
    expect(completeFiles).toHaveBeenLastCalledWith('');
    expect(strip(ui.lastFrame())).toContain('README.md');
    ui.stdin.write('\t');
    await tick();
    expect(completeFiles).toHaveBeenLastCalledWith('src/');
    expect(strip(ui.lastFrame())).toContain('› read @src/');
    expect(strip(ui.lastFrame())).toContain('src/b.ts');
    ui.stdin.write('\u001B[B');
    await tick();
    ui.stdin.write('\t');
    await tick();
    expect(strip(ui.lastFrame())).toContain('› read @src/b.ts ');
    ui.unmount();
  });

  it('quits on a second Ctrl+C on an empty input, after saying so', async () => {
    const { props, ui } = await editor();
    ui.stdin.write('draft');
    await tick();
    ui.stdin.write('\u0003');
    await tick();
    expect(strip(ui.lastFrame())).toContain('Ctrl+C again quits');
    expect(props.onQuit).not.toHaveBeenCalled();
    ui.stdin.write('\u0003');
    await tick();
    expect(props.onQuit).toHaveBeenCalledTimes(1);
    ui.unmount();
  });

  it('walks the prompt history with Up', async () => {
    const { ui } = await editor({ history: ['the last prompt', 'an earlier one'] });
    ui.stdin.write('\u001B[A');
    await tick();
    expect(strip(ui.lastFrame())).toContain('› the last prompt');
    ui.stdin.write('\u001B[A');
    await tick();
    expect(strip(ui.lastFrame())).toContain('› an earlier one');
    ui.unmount();
  });

  it('collapses a large paste and sends it whole', async () => {
    const { props, ui } = await editor();
    const paste = Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n');
    ui.stdin.write(paste);
    await tick();
    expect(strip(ui.lastFrame())).toContain('[pasted 30 lines]');
    ui.stdin.write('\r');
    await tick();
    expect(props.onSubmit).toHaveBeenCalledWith(paste);
    ui.unmount();
  });
});
