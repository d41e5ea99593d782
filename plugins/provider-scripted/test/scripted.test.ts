import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEnvelopeError, type ModelProvider, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { providerScriptedPlugin, type Script } from '../src/index.js';
import { assistant, collect, factory, registerProviders, rejection, request, tool, user } from './plugin-context.js';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodwyn-scripted-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scripted(script: Script): Promise<ModelProvider> {
  const path = join(dir, `script-${counter++}.json`);
  await writeFile(path, JSON.stringify(script));
  return (await factory('scripted')).create({ script: path });
}

const threeTexts: Script = { replies: [{ text: 'zero' }, { text: 'one' }, { text: 'two' }] };
const live = () => new AbortController().signal;
const texts = (events: ModelStreamEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : []));
const calls = (events: ModelStreamEvent[]) => events.flatMap((event) => (event.type === 'tool_call' ? [event.call] : []));

describe('provider-scripted plugin', () => {
  it('registers exactly the scripted and replay factories its manifest provides', async () => {
    const factories = await registerProviders();
    expect([...factories.keys()].sort()).toEqual(['replay', 'scripted']);
    expect(providerScriptedPlugin.manifest.provides).toEqual(['provider:scripted', 'provider:replay']);
    expect(providerScriptedPlugin.manifest.permissions).toEqual(['fs.read', 'log.read']);
  });
});

describe('reply index', () => {
  it('plays the reply whose index is the number of assistant messages since the last user message', async () => {
    const provider = await scripted(threeTexts);
    const window = [user('go'), assistant('zero'), tool('r0'), assistant('one'), tool('r1')];
    expect(texts(await collect(provider.stream(request(...window.slice(0, 1)), live())))).toEqual(['zero']);
    expect(texts(await collect(provider.stream(request(...window.slice(0, 3)), live())))).toEqual(['one']);
    expect(texts(await collect(provider.stream(request(...window), live())))).toEqual(['two']);
  });

  it('starts again at reply 0 when a resumed session has a new user message', async () => {
    const provider = await scripted(threeTexts);
    const earlierRun = [user('first'), assistant('zero'), tool('r0'), assistant('one')];
    expect(texts(await collect(provider.stream(request(...earlierRun, user('second')), live())))).toEqual(['zero']);
    expect(texts(await collect(provider.stream(request(...earlierRun, user('second'), assistant('zero'), tool('r')), live())))).toEqual(['one']);
  });

  it('derives the index from the request alone, so a fresh instance continues a run mid-way', async () => {
    const window = [user('go'), assistant('zero'), tool('r0')];
    const first = await scripted(threeTexts);
    await collect(first.stream(request(user('go')), live()));
    const restarted = await scripted(threeTexts);
    expect(texts(await collect(restarted.stream(request(...window), live())))).toEqual(['one']);
    expect(texts(await collect(first.stream(request(...window), live())))).toEqual(['one']);
  });

  it('fails with SCRIPT_EXHAUSTED when the run asks for one reply more than the script has', async () => {
    const provider = await scripted({ replies: [{ toolCalls: [{ name: 'a', args: {} }] }, { toolCalls: [{ name: 'b', args: {} }] }] });
    const error = await rejection(collect(provider.stream(request(user('go'), assistant(''), tool('1'), assistant(''), tool('2')), live())));
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({
      category: 'PRECONDITION_FAILED',
      code: 'SCRIPT_EXHAUSTED',
      plugin: '@nodwyn/plugin-provider-scripted',
    });
    const remediation = isEnvelopeError(error) ? error.envelope.remediation : '';
    expect(remediation).toContain('has 2 replies and the run asked for reply 3');
    expect(remediation).toContain('end the script with a text-only reply');
  });
});

describe('templating', () => {
  it('fills both placeholders in the text, every occurrence, from the last tool and user messages', async () => {
    const provider = await scripted({ replies: [{ text: 'x' }, { text: 'saw {{lastToolResult}} for {{lastUserMessage}}; again {{lastToolResult}}' }] });
    const window = [user('old ask'), assistant('x'), tool('old result'), user('new ask'), assistant('x'), tool('new result')];
    const events = await collect(provider.stream(request(...window), live()));
    expect(texts(events).join('')).toBe('saw new result for new ask; again new result');
  });

  it("fills {{systemPrompt}} with the request's system prompt, so a test sees what the model is told", async () => {
    const provider = await scripted({ replies: [{ text: 'told: [{{systemPrompt}}]' }] });
    const withBrief = await collect(provider.stream({ ...request(user('hi')), system: '# You are nodwyn' }, live()));
    expect(texts(withBrief).join('')).toBe('told: [# You are nodwyn]');
    const without = await collect(provider.stream(request(user('hi')), live()));
    expect(texts(without).join('')).toBe('told: []');
  });

  it('fills strings nested anywhere in tool call args, leaving keys and other values alone', async () => {
    const args = { path: '{{lastToolResult}}', deep: { list: ['a {{lastUserMessage}}', 3, true, null], '{{lastUserMessage}}': 'key stays' } };
    const provider = await scripted({ replies: [{ toolCalls: [{ name: 'write_file', args }] }] });
    const [call] = calls(await collect(provider.stream(request(tool('src/a.ts'), user('fix it')), live())));
    expect(call?.args).toEqual({ path: 'src/a.ts', deep: { list: ['a fix it', 3, true, null], '{{lastUserMessage}}': 'key stays' } });
  });

  it('inserts values literally: no $-patterns, and a value holding a placeholder is not expanded again', async () => {
    const provider = await scripted({ replies: [{ text: '[{{lastToolResult}}]' }] });
    const events = await collect(provider.stream(request(user('U'), tool('cost $& and {{lastUserMessage}}')), live()));
    expect(texts(events).join('')).toBe('[cost $& and {{lastUserMessage}}]');
  });

  it('fills empty strings when the window has no tool or user message', async () => {
    const provider = await scripted({ replies: [{ text: '<{{lastToolResult}}|{{lastUserMessage}}>' }] });
    expect(texts(await collect(provider.stream(request(), live()))).join('')).toBe('<|>');
  });
});

describe('streaming', () => {
  it('streams the text as word chunks that join back to the exact text', async () => {
    const text = 'Hello there,  general\nKenobi ';
    const provider = await scripted({ replies: [{ text }] });
    const chunks = texts(await collect(provider.stream(request(user('hi')), live())));
    expect(chunks).toEqual(['Hello ', 'there,  ', 'general\n', 'Kenobi ']);
    expect(chunks.join('')).toBe(text);
  });

  it('streams each tool call as deltas then the call, with ids call_<reply>_<i>, and stops with tool_use', async () => {
    const long = { path: 'a/very/long/path/that/needs/more/than/one/fragment.ts', content: 'x' };
    const provider = await scripted({ replies: [{ text: 'a' }, { text: 'two calls', toolCalls: [{ name: 'write_file', args: long }, { name: 'list_dir', args: {} }] }] });
    const events = await collect(provider.stream(request(user('go'), assistant('a'), tool('ok')), live()));
    expect(events.map((event) => event.type)).toEqual(['text', 'text', 'tool_call_delta', 'tool_call_delta', 'tool_call_delta', 'tool_call', 'tool_call_delta', 'tool_call', 'usage', 'stop']);
    const deltas = events.flatMap((event) => (event.type === 'tool_call_delta' ? [event] : []));
    expect(deltas.map((delta) => [delta.callId, delta.name])).toEqual([['call_1_0', 'write_file'], ['call_1_0', undefined], ['call_1_0', undefined], ['call_1_1', 'list_dir']]);
    expect(JSON.parse(deltas.slice(0, 3).map((delta) => delta.argsFragment).join(''))).toEqual(long);
    expect(calls(events)).toEqual([{ id: 'call_1_0', name: 'write_file', args: long }, { id: 'call_1_1', name: 'list_dir', args: {} }]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'tool_use' });
  });

  it('sends no text event for a reply with tool calls only, and stops with end_turn for text only', async () => {
    const provider = await scripted({ replies: [{ toolCalls: [{ name: 'list_dir', args: {} }] }, { text: 'done' }] });
    const first = await collect(provider.stream(request(user('go')), live()));
    expect(texts(first)).toEqual([]);
    const second = await collect(provider.stream(request(user('go'), assistant(''), tool('ok')), live()));
    expect(second.filter((event) => event.type === 'stop')).toEqual([{ type: 'stop', reason: 'end_turn' }]);
    expect(calls(second)).toEqual([]);
  });

  it("reports the reply's own usage when the script states it", async () => {
    const provider = await scripted({ replies: [{ text: 'a', usage: { input: 1234, output: 56 } }] });
    const events = await collect(provider.stream(request(user('go')), live()));
    expect(events.filter((event) => event.type === 'usage')).toEqual([{ type: 'usage', usage: { input: 1234, output: 56 } }]);
  });

  it('estimates usage at four characters a token of the input messages and of the output', async () => {
    const provider = await scripted({ replies: [{ text: 'x' }, { text: '12345', toolCalls: [{ name: 'ab', args: { k: 1 } }] }] });
    // input: user 16 + assistant 'x' 1 + its call 'ls' + '{}' 4 + tool 'ok' 2 = 23 → 6; output: '12345' 5 + 'ab' + '{"k":1}' 9 = 14 → 4
    const window = [user('abcdefghijklmnop'), assistant('x', [{ id: 'c', name: 'ls', args: {} }]), tool('ok')];
    const events = await collect(provider.stream(request(...window), live()));
    expect(events.filter((event) => event.type === 'usage')).toEqual([{ type: 'usage', usage: { input: 6, output: 4 } }]);
  });
});

describe('cancellation and options', () => {
  it('throws CANCELLED PROVIDER_CANCELLED before any event when the signal is already aborted', async () => {
    const provider = await scripted({ replies: [{ text: 'never seen' }] });
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(collect(provider.stream(request(user('go')), controller.signal)));
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'CANCELLED', code: 'PROVIDER_CANCELLED' });
  });

  it('stops mid-stream when the signal fires between events', async () => {
    const provider = await scripted({ replies: [{ text: 'one two three four' }] });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of provider.stream(request(user('go')), controller.signal)) {
          seen.push(event);
          controller.abort();
        }
      })(),
    );
    expect(seen).toEqual([{ type: 'text', text: 'one ' }]);
    expect(isEnvelopeError(error) && error.envelope.code).toBe('PROVIDER_CANCELLED');
  });

  it('resolves a relative --script path against the working directory', async () => {
    const path = join(dir, 'relative.json');
    await writeFile(path, JSON.stringify({ replies: [{ text: 'found relative' }] }));
    const provider = await (await factory('scripted')).create({ script: relative(process.cwd(), path) });
    expect(texts(await collect(provider.stream(request(user('go')), live()))).join('')).toBe('found relative');
    expect(provider.model).toBe('relative.json');
  });
});
