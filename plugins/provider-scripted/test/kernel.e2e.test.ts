import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider } from '@nodwyn/plugin-api';
import { describeProviderConformance, echoPlugin, startTestKernel, toolLoop, type TestKernel } from '@nodwyn/testing';
import { providerScriptedPlugin, type Script } from '../src/index.js';
import { factory } from './plugin-context.js';

let dir: string;
let running: TestKernel | undefined;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodwyn-scripted-e2e-'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scriptFile(script: Script): Promise<string> {
  const path = join(dir, `script-${counter++}.json`);
  await writeFile(path, JSON.stringify(script));
  return path;
}


const echoThenAnswer: Script = {
  replies: [
    { text: 'Echoing.', toolCalls: [{ name: 'echo', args: { text: 'from {{lastUserMessage}}' } }] },
    { text: 'echo said: {{lastToolResult}}', usage: { input: 10, output: 3 } },
  ],
};

async function kernelWith(): Promise<{ t: TestKernel; provider: (id: string, options: Record<string, string>) => Promise<ModelProvider> }> {
  const t = await startTestKernel({ plugins: [providerScriptedPlugin, echoPlugin()] });
  running = t;
  const kernel = t.kernel;
  return { t, provider: async (id, options) => kernel.providers.get(id).item.create(options) };
}

const assistantPayloads = (k: TestKernel, session: string) => k.events(session).filter((e) => e.type === 'message.assistant').map((e) => e.payload);

describeProviderConformance('scripted', async () => (await factory('scripted')).create({ script: await scriptFile(echoThenAnswer) }));

describe('provider-scripted on the real kernel', () => {
  it('runs a script through the turn floor: templated tool call, real tool result, templated answer', async () => {
    const { t, provider } = await kernelWith();
    const result = await t.run('hello', { provider: await provider('scripted', { script: await scriptFile(echoThenAnswer) }), loop: toolLoop });
    expect(result).toMatchObject({ reason: 'answer', answer: 'echo said: from hello' });
    const completed = t.events(result.session).filter((e) => e.type === 'tool.completed');
    expect(completed.map((e) => [e.payload.call_id, e.payload.content])).toEqual([['call_0_0', 'from hello']]);
  });

  it('plays the script from reply 0 again for a second prompt on the same session', async () => {
    const { t, provider } = await kernelWith();
    const scripted = await provider('scripted', { script: await scriptFile(echoThenAnswer) });
    const first = await t.run('one', { provider: scripted, loop: toolLoop });
    const second = await t.run('two', { provider: scripted, loop: toolLoop, session: first.session });
    expect(second).toMatchObject({ reason: 'answer', answer: 'echo said: from two' });
    expect(assistantPayloads(t, first.session)).toHaveLength(4);
  });

  it('ends the run with SCRIPT_EXHAUSTED when the script has no reply left', async () => {
    const { t, provider } = await kernelWith();
    const script = await scriptFile({ replies: [{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }] });
    const result = await t.run('go', { provider: await provider('scripted', { script }), loop: toolLoop });
    expect(result.reason).toBe('failed');
    expect(result.envelope).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'SCRIPT_EXHAUSTED' });
  });

  it('replays a logged single-prompt session exactly: text, tool call ids, usage and stop reasons', async () => {
    const { t, provider } = await kernelWith();
    const source = await t.run('hello', { provider: await provider('scripted', { script: await scriptFile(echoThenAnswer) }), loop: toolLoop });
    const replayed = await t.run('hello', { provider: await provider('replay', { session: source.session }), loop: toolLoop });
    expect(replayed).toMatchObject({ reason: 'answer', answer: 'echo said: from hello' });
    const shape = (payload: Record<string, unknown>) => ({ text: payload.text, tool_calls: payload.tool_calls, usage: payload.usage, stop_reason: payload.stop_reason });
    const original = assistantPayloads(t, source.session).map(shape);
    expect(original).toHaveLength(2);
    expect(assistantPayloads(t, replayed.session).map(shape)).toEqual(original);
  });
});
