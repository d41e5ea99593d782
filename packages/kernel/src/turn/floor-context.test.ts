import type { ContextContributor, ContextPart, TurnFloor } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryKernel, replies } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

/** A loop that builds the brief from every contributor, then answers with one model call. */
const briefLoop = {
  id: 'brief',
  description: 'brief, then one call',
  async run(floor: TurnFloor) {
    floor.context.add(await floor.context.contributed());
    return { answer: (await floor.callModel()).text };
  },
};

function contributor(id: string, parts: () => ContextPart[]): ContextContributor {
  return { id, description: `${id} parts`, parts };
}

function setup(...contributors: ContextContributor[]) {
  kernel = memoryKernel();
  for (const c of contributors) kernel.contexts.register('test', c);
  return kernel.sessions.create({ workspace: kernel.workspace });
}

const added = (session: string) => kernel.log.read(session).filter((e) => e.type === 'context.added').map((e) => e.payload);

describe("the floor's brief", () => {
  it('logs each part once as context.added and sends the logged parts, in order, as the system prompt', async () => {
    const session = setup(
      contributor('a', () => [{ id: 'a.role', source: 'nodwyn', text: 'You are a coding agent.' }]),
      contributor('b', () => [{ id: 'b.env', source: 'environment', text: 'Workspace: /w' }]),
    );
    const provider = replies([{ text: 'one' }, { text: 'two' }]);
    await kernel.run({ session, prompt: 'first', provider, strategy: briefLoop });
    await kernel.run({ session, prompt: 'second', provider, strategy: briefLoop });
    expect(added(session)).toEqual([
      { id: 'a.role', source: 'nodwyn', text: 'You are a coding agent.', tokens: 6 },
      { id: 'b.env', source: 'environment', text: 'Workspace: /w', tokens: 4 },
    ]);
    expect(provider.requests.map((r) => r.system)).toEqual(['You are a coding agent.\n\nWorkspace: /w', 'You are a coding agent.\n\nWorkspace: /w']);
  });

  it('sends the brief the log holds, not what a contributor says now: a resumed session keeps its brief', async () => {
    let text = 'Branch: main';
    const session = setup(contributor('env', () => [{ id: 'env.git', source: 'git', text }]));
    const provider = replies([{ text: 'one' }, { text: 'two' }]);
    await kernel.run({ session, prompt: 'first', provider, strategy: briefLoop });
    text = 'Branch: elsewhere';
    await kernel.run({ session, prompt: 'second', provider, strategy: briefLoop });
    expect(provider.requests.map((r) => r.system)).toEqual(['Branch: main', 'Branch: main']);
  });

  it('passes a part through the text layers before it is logged or sent, and counts the redacted text', async () => {
    const session = setup(contributor('files', () => [{ id: 'files.agents', source: 'AGENTS.md', text: 'deploy with token TOPSECRET-123' }]));
    kernel.stages.add('l1', { name: 'mask', slot: 'log', filter: (d) => ({ ...d, payload: JSON.parse(JSON.stringify(d.payload).replaceAll('TOPSECRET-123', '[R]')) }) });
    const provider = replies([{ text: 'ok' }]);
    await kernel.run({ session, prompt: 'go', provider, strategy: briefLoop });
    expect(added(session)).toEqual([{ id: 'files.agents', source: 'AGENTS.md', text: 'deploy with token [R]', tokens: 6 }]);
    expect(provider.requests[0]!.system).toBe('deploy with token [R]');
    expect(JSON.stringify(kernel.log.read(session))).not.toContain('TOPSECRET');
  });

  it('takes the brief out of the window budget: older messages give way to it', async () => {
    const session = setup(contributor('big', () => [{ id: 'big.text', source: 'nodwyn', text: 'x'.repeat(600) }]));
    const provider = replies([{ text: 'a'.repeat(200) }, { text: 'b' }]);
    await kernel.run({ session, prompt: 'first '.repeat(20), provider, strategy: briefLoop, budgets: { windowTokens: 200 } });
    await kernel.run({ session, prompt: 'second', provider, strategy: briefLoop, budgets: { windowTokens: 200 } });
    // 150 tokens of brief and 83 of the messages pass 200, so the first answer goes (the session's first ask
    // stays pinned); the messages alone would fit.
    expect(provider.requests[1]!.messages).toEqual([
      { role: 'user', text: 'first '.repeat(20) },
      { role: 'user', text: 'second' },
    ]);
  });

  it('skips a contributor that throws for the turn, logging context.failed, and keeps the others', async () => {
    const session = setup(
      contributor('broken', () => {
        throw new Error('disk on fire');
      }),
      contributor('fine', () => [{ id: 'fine.part', source: 'nodwyn', text: 'Still here.' }]),
    );
    const provider = replies([{ text: 'ok' }]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: briefLoop });
    expect(result.reason).toBe('answer');
    const failed = kernel.log.read(session).find((e) => e.type === 'context.failed')?.payload;
    expect(failed).toMatchObject({ contributor: 'broken', envelope: { code: 'CONTEXT_CONTRIBUTOR_FAILED', plugin: 'test' } });
    expect(provider.requests[0]!.system).toBe('Still here.');
  });

  it('sends no system prompt when the session logged no part', async () => {
    const session = setup();
    const provider = replies([{ text: 'ok' }]);
    await kernel.run({ session, prompt: 'go', provider, strategy: briefLoop });
    expect(provider.requests[0]).not.toHaveProperty('system');
  });
});
