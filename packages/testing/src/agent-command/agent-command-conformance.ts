import { AGENT_COMMAND_NAME, isEnvelopeError, RESERVED_AGENT_COMMANDS, type AgentCommand, type PluginDefinition } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '../start-test-kernel.js';

/** How to run the agent-command suite against one plugin. */
export interface AgentCommandSuiteOptions extends Omit<TestKernelOptions, 'plugins'> {
  /** Plugins the command's plugin requires, loaded beside it. */
  readonly with?: readonly PluginDefinition[];
  /** Longest a run may take before the suite calls it stuck; 5 s by default. */
  readonly timeoutMs?: number;
}

/** A run's outcome: its text, or the envelope it failed with; anything else fails the suite. */
async function outcome(command: AgentCommand, input: string, session: string, signal: AbortSignal, timeoutMs: number): Promise<string | 'envelope'> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`/${command.name} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const text = await Promise.race([command.run({ session, input, signal }), stuck]);
    expect(typeof text, `/${command.name} answers text`).toBe('string');
    return text;
  } catch (error) {
    if (isEnvelopeError(error)) return 'envelope';
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What every plugin that contributes agent commands (slash commands the agent answers itself) must do:
 * register exactly the commands its manifest provides, with valid, unreserved names and a description;
 * answer a bare `/<name>` with text; and, for input it cannot use or a run already cancelled, answer
 * text or fail with an envelope (never a bare error, never hang), since the server shows what it throws.
 */
export function describeAgentCommandConformance(plugin: PluginDefinition, options: AgentCommandSuiteOptions = {}): void {
  const { with: beside = [], timeoutMs = 5000, ...kernelOptions } = options;
  const declared = plugin.manifest.provides.filter((p) => p.startsWith('agent-command:')).map((p) => p.slice('agent-command:'.length));
  const withKernel = async (body: (t: TestKernel, commands: readonly AgentCommand[]) => Promise<void>): Promise<void> => {
    const t = await startTestKernel({ ...kernelOptions, plugins: [plugin, ...beside] });
    try {
      await body(t, t.host.agentCommands().filter((c) => c.owner === plugin.manifest.name).map((c) => c.command));
    } finally {
      await t.stop();
    }
  };

  describe(`${plugin.manifest.name} conforms as an agent-command plugin`, () => {
    it('registers exactly the agent commands it provides, well named and described', () =>
      withKernel(async (_t, commands) => {
        expect(declared.length, 'an agent-command plugin provides at least one agent-command:<name>').toBeGreaterThan(0);
        expect(commands.map((c) => c.name).sort()).toEqual([...declared].sort());
        for (const c of commands) {
          expect(AGENT_COMMAND_NAME.test(c.name), c.name).toBe(true);
          expect(RESERVED_AGENT_COMMANDS, c.name).not.toContain(c.name);
          expect(c.description.trim().length, c.name).toBeGreaterThan(10);
          expect(c.description.includes('\n'), `${c.name}'s description is one line`).toBe(false);
        }
      }));

    it('answers the bare command with text', () =>
      withKernel(async (t, commands) => {
        for (const c of commands) expect(await outcome(c, '', t.session(), new AbortController().signal, timeoutMs), c.name).not.toBe('envelope');
      }));

    it('answers input it cannot use, or a cancelled run, with text or an envelope', () =>
      withKernel(async (t, commands) => {
        const cancelled = new AbortController();
        cancelled.abort();
        for (const c of commands) {
          await outcome(c, `${'x'.repeat(5000)} \u0000 ../../etc/passwd`, t.session(), new AbortController().signal, timeoutMs);
          await outcome(c, '', t.session(), cancelled.signal, timeoutMs);
        }
      }));
  });
}
