import { API_VERSION, z, type ModelProvider, type ModelRequest, type ModelStreamEvent, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kernel } from '../src/index.js';

export { API_VERSION };

/** A kernel on an in-memory log with a temp workspace. */
export function memoryKernel(): Kernel {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-kernel-')));
  return Kernel.open({ dbPath: ':memory:', key: randomBytes(32), workspace, outputCap: 1024 });
}

/** A read-tier echo primitive. */
export const echo: PrimitiveDefinition<{ text: string }> = {
  name: 'echo',
  description: 'Returns its text.',
  input: z.object({ text: z.string() }).strict(),
  tier: 'read',
  visibility: 'model',
  handler: (args) => ({ content: args.text }),
};

/** A provider answering from a list (index = assistant messages since the last user message). */
export function replies(list: { text?: string; calls?: { name: string; args: unknown }[]; usage?: { input: number; output: number } }[]): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'test',
    requests,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      requests.push(request);
      const lastUser = request.messages.findLastIndex((m) => m.role === 'user');
      const index = request.messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
      const reply = list[index];
      if (!reply) throw new Error(`no reply ${index}`);
      if (reply.text) yield { type: 'text', text: reply.text };
      for (const [i, call] of (reply.calls ?? []).entries()) yield { type: 'tool_call', call: { id: `c${index}_${i}`, ...call } };
      yield { type: 'usage', usage: reply.usage ?? { input: 1, output: 1 } };
      yield { type: 'stop', reason: reply.calls?.length ? 'tool_use' : 'end_turn' };
    },
  };
}

/** The default loop, inline: the kernel must not depend on the loop plugin. */
export const simpleLoop = {
  id: 'simple',
  description: 'call, run tools, repeat',
  async run(floor: import('@nodwyn/plugin-api').TurnFloor) {
    for (;;) {
      const message = await floor.callModel();
      if (message.toolCalls.length === 0) return { answer: message.text };
      await floor.runToolCalls(message);
    }
  },
};
