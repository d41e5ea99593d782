import { describe, expect, it } from 'vitest';
import type { AgentCommand } from '@nodwyn/plugin-api';
import { createHost, distribution, entry, RecordingKernel, rejection, row, testPlugin } from './helpers.js';

function command(name: string): AgentCommand {
  return { name, description: `the ${name} command`, run: async ({ input }) => `${name}: ${input}` };
}

describe('agent commands', () => {
  it('keeps the agent commands of started plugins, with their owner, and never hands them to the kernel', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const caps = testPlugin('caps', { provides: ['agent-command:capabilities'] }, [], { register: (ctx) => ctx.agentCommands.register(command('capabilities')) });
    const notes = testPlugin('notes', { provides: ['agent-command:notes'] }, [], { register: (ctx) => ctx.agentCommands.register({ ...command('notes'), hint: 'a word' }) });
    await host.load(distribution(entry(caps), entry(notes)));
    expect(host.agentCommands()).toEqual([]);
    await host.start();
    expect(host.agentCommands().map(({ command: c, owner }) => [c.name, c.hint, owner])).toEqual([
      ['capabilities', undefined, 'caps'],
      ['notes', 'a word', 'notes'],
    ]);
    expect(await host.agentCommands()[1]!.command.run({ session: 's', input: 'x', signal: new AbortController().signal })).toBe('notes: x');
    expect(kernel.registrations).toEqual([]);
    await host.stopAll();
    expect(host.agentCommands()).toEqual([]);
  });

  it('fails a plugin whose agent command its manifest does not provide', async () => {
    const host = createHost(new RecordingKernel());
    const sneaky = testPlugin('sneaky', { provides: [] }, [], { register: (ctx) => ctx.agentCommands.register(command('sneaky')) });
    await host.load(distribution(entry(sneaky, { optional: true })));
    await host.start();
    expect(row(host, 'sneaky').envelope?.code).toBe('PLUGIN_PROVIDES_MISMATCH');
    expect(host.agentCommands()).toEqual([]);
  });

  it('refuses a second plugin registering a command name already taken', async () => {
    const host = createHost(new RecordingKernel());
    const first = testPlugin('first', { provides: ['agent-command:notes'] }, [], { register: (ctx) => ctx.agentCommands.register(command('notes')) });
    const second = testPlugin('second', { provides: ['agent-command:notes'] }, [], { register: (ctx) => ctx.agentCommands.register(command('notes')) });
    await host.load(distribution(entry(first), entry(second, { optional: true })));
    await host.start();
    expect(row(host, 'second').envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_DUPLICATE', received_value: 'agent-command:notes' });
    expect(host.agentCommands().map((c) => c.owner)).toEqual(['first']);
  });

  it('refuses a command that clashes with a built-in one, naming the reserved names', async () => {
    const host = createHost(new RecordingKernel());
    const clash = testPlugin('clash', { provides: ['agent-command:model'] }, [], { register: (ctx) => ctx.agentCommands.register(command('model')) });
    const envelope = await rejection(host.load(distribution(entry(clash))));
    expect(envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', plugin: 'clash', failed_parameter: 'agentCommand.name', received_value: 'model' });
    expect(envelope.expected).toContain('title');
  });

  it('refuses a badly named command and one without a run function', async () => {
    const badName = testPlugin('bad-name', { provides: ['agent-command:git_log'] }, [], { register: (ctx) => ctx.agentCommands.register(command('git_log')) });
    expect(await rejection(createHost(new RecordingKernel()).load(distribution(entry(badName))))).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', failed_parameter: 'agentCommand.name' });
    const noRun = testPlugin('no-run', { provides: ['agent-command:x'] }, [], {
      register: (ctx) => ctx.agentCommands.register({ name: 'x', description: 'no run' } as unknown as AgentCommand),
    });
    expect(await rejection(createHost(new RecordingKernel()).load(distribution(entry(noRun))))).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', failed_parameter: 'agentCommand' });
  });

  it('does not offer the command of a plugin that failed in start', async () => {
    const host = createHost(new RecordingKernel());
    const failing = testPlugin('failing', { provides: ['agent-command:notes'] }, [], {
      register: (ctx) => ctx.agentCommands.register(command('notes')),
      start: () => {
        throw new Error('no notes');
      },
    });
    await host.load(distribution(entry(failing, { optional: true })));
    await host.start();
    expect(row(host, 'failing').state).toBe('failed');
    expect(host.agentCommands()).toEqual([]);
  });
});
