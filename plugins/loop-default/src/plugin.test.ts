import { describe, expect, it } from 'vitest';
import { type AgentCommand, type LoopStrategy } from '@nodwyn/plugin-api';
import { pluginContextFor } from '@nodwyn/testing';
import { answer, RecordingFloor, twoSteps } from '../test/recording-floor.js';
import { loopDefaultPlugin } from './plugin.js';

/** The plugin registered on a context that records what it registers and appends; no judge is loaded. */
async function registered() {
  const loops: LoopStrategy[] = [];
  const commands: AgentCommand[] = [];
  const appended: unknown[] = [];
  const context = pluginContextFor(loopDefaultPlugin, {
    loops: { register: (strategy) => void loops.push(strategy) },
    agentCommands: { register: (command) => void commands.push(command) },
    events: { append: (session, type, payload) => void appended.push({ session, type, payload }) },
  });
  await loopDefaultPlugin.register(context, { judge: () => undefined });
  return { loops, commands, appended };
}

describe('loopDefaultPlugin', () => {
  it('registers exactly the default strategy and /compact its manifest provides, and runs without a judge loaded', async () => {
    const { loops, commands } = await registered();
    expect(loops.map((l) => l.id)).toEqual(['default']);
    expect(commands.map((c) => c.name)).toEqual(['compact']);
    expect(loopDefaultPlugin.manifest.provides).toEqual(['loop:default', 'agent-command:compact']);
    expect(loopDefaultPlugin.manifest.requires).toEqual([]);
    const floor = new RecordingFloor([answer('Hi.')]);
    expect(await loops[0]!.run(floor)).toEqual({ answer: 'Hi.' });
    expect(floor.calls).not.toContain('summarize(1..2)');
  });

  it('/compact is logged and makes the next turn of that session compact first, with its focus', async () => {
    const { loops, commands, appended } = await registered();
    const floor = new RecordingFloor([answer('Hi.')], { view: twoSteps() });
    const reply = await commands[0]!.run({ session: floor.session, input: 'the failing test', signal: new AbortController().signal });
    expect(reply).toContain('the failing test');
    expect(appended).toEqual([{ session: floor.session, type: 'compaction.requested', payload: { focus: 'the failing test' } }]);
    await loops[0]!.run(floor);
    expect(floor.summaries).toEqual([{ fromSeq: 3, toSeq: 6, focus: 'the failing test' }]);
    await loops[0]!.run(new RecordingFloor([answer('Again.')], { view: twoSteps() }));
    expect(floor.summaries).toHaveLength(1);
  });
});
