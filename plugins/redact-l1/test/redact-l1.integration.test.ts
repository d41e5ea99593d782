import { API_VERSION, RedactorToken, TaintToken, z, type PluginDefinition, type Redactor, type TaintTracker } from '@nodwyn/plugin-api';
import { listProvider, startTestKernel, testPlugin, toolLoop, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactL1Plugin, redactL1Plugin, REDACT_L1_PROVIDES } from '../src/index.js';
import { detect } from '../src/detect.js';
import { createRedactor } from '../src/redactor.js';
import { ingressStage } from '../src/stages.js';

const TOKEN = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';
const PASSWORD = 'Sup3r$ecret!9x';
const ENV_FILE = `# .env\nGITHUB_TOKEN=${TOKEN}\nDB_PASSWORD=${PASSWORD}\nLOG_LEVEL=info\n`;

/** A plugin with one read tool that returns a `.env`-like text holding two secrets. */
const envReaderPlugin = testPlugin('env-reader', ['primitive:read_env'], (ctx) =>
  ctx.primitives.register({
    name: 'read_env',
    description: 'Reads the project .env file.',
    input: z.object({ path: z.literal('.env').optional() }).strict(),
    tier: 'read',
    visibility: 'model',
    handler: () => ({ content: ENV_FILE }),
  }),
);


let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(plugins: PluginDefinition[]): Promise<TestKernel> {
  running = await startTestKernel({ plugins });
  return running;
}

/** A run where the person pastes a token, the model reads the env file and calls a tool with a secret in its arguments. */
async function leakyRun(t: TestKernel) {
  const provider = listProvider([{ toolCalls: [{ name: 'read_env', args: {} }, { name: 'read_env', args: { path: TOKEN } }] }, { text: 'done' }]);
  const result = await t.run(`here is my token ${TOKEN}, please check the env file`, { provider, loop: toolLoop });
  return { events: t.events(result.session), provider, result };
}

describe('redact-l1 through the kernel', () => {
  it('loads with exactly the contributions its manifest lists and serves the redactor', async () => {
    let served: Redactor | undefined;
    const consumer = testPlugin('consumer', [], (ctx) => void (served = ctx.services.get(RedactorToken)), { requires: ['service:redactor'] });
    await start([redactL1Plugin, consumer]);
    expect(redactL1Plugin.manifest).toMatchObject({ name: '@nodwyn/plugin-redact-l1', version: '0.1.0', apiVersion: `^${API_VERSION}`, provides: REDACT_L1_PROVIDES });
    expect(served?.redact(`t=${TOKEN}`).text).toBe('t=[REDACTED github-token]');
    expect(running!.kernel.commands.list().map((c) => c.item.name)).toContain('redact');
  });

  it('(a) gives the model a redacted result tagged with the classes found', async () => {
    const t = await start([redactL1Plugin, envReaderPlugin]);
    const result = await t.apply('read_env', {});
    expect(result).toMatchObject({
      ok: true,
      content: '# .env\nGITHUB_TOKEN=[REDACTED github-token]\nDB_PASSWORD=[REDACTED generic-password]\nLOG_LEVEL=info\n',
      taint: ['generic-password', 'github-token'],
    });
  });

  it('(b) writes no secret to any event: the prompt, the tool results, the arguments, the envelopes', async () => {
    const t = await start([redactL1Plugin, envReaderPlugin]);
    const { events, provider, result } = await leakyRun(t);
    expect(result.reason).toBe('answer');
    const logged = JSON.stringify(events);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(PASSWORD);
    expect(logged).toContain('[REDACTED github-token]');
    expect(events.find((e) => e.type === 'tool.denied')?.payload).toMatchObject({ envelope: { category: 'VALIDATION_FAILED' } });
    // The window is built from the log, so the model never saw the secrets either.
    expect(JSON.stringify(provider.requests)).not.toContain(TOKEN);
  });

});

describe('redact-l1: no tool result reaches the log unredacted', () => {
  it('(c) logs no tool result that did not pass the layers', async () => {
    const t = await start([redactL1Plugin, envReaderPlugin]);
    const { events } = await leakyRun(t);
    const completed = events.filter((e) => e.type === 'tool.completed');
    expect(completed.length).toBeGreaterThan(0);
    for (const e of completed) expect(String(e.payload.content)).not.toContain(TOKEN);
  });

  it('(c) can fail: without the plugin the same run logs the secret in tool.completed', async () => {
    const t = await start([envReaderPlugin]);
    const { events } = await leakyRun(t);
    const completed = events.filter((e) => e.type === 'tool.completed');
    expect(completed.some((e) => String(e.payload.content).includes(TOKEN))).toBe(true);
  });

  it('(c) can fail: with the ingress stage alone the pasted token reaches the log', async () => {
    const ingressOnly = testPlugin('ingress-only', ['guard-stage:redact-l1-ingress'], (ctx) => ctx.guard.addStage(ingressStage(createRedactor(), () => undefined)));
    const t = await start([ingressOnly, envReaderPlugin]);
    const { events } = await leakyRun(t);
    for (const e of events.filter((x) => x.type === 'tool.completed')) expect(String(e.payload.content)).not.toContain(TOKEN);
    expect(JSON.stringify(events.filter((e) => e.type === 'message.user'))).toContain(TOKEN);
  });

});

describe('redact-l1: taint and failure', () => {
  it('hands the original values to the taint layer when one is loaded, and to nothing else', async () => {
    const remembered: { value: string; tags: readonly string[] }[] = [];
    const tracker: TaintTracker = { remember: (_s, value, tags) => remembered.push({ value, tags }), tagsOf: () => [], matches: () => [] };
    const taintPlugin = testPlugin('fake-taint', ['service:taint'], (ctx) => ctx.services.provide(TaintToken, tracker));
    const t = await start([taintPlugin, redactL1Plugin, envReaderPlugin]);
    const session = t.session();
    await t.apply('read_env', {}, { session });
    expect(remembered).toEqual([
      { value: TOKEN, tags: ['github-token'] },
      { value: PASSWORD, tags: ['generic-password'] },
    ]);
    expect(JSON.stringify(t.events(session))).not.toContain(PASSWORD);
  });

  it('fails closed: a detector that breaks on a result denies the call and nothing of it is logged', async () => {
    // A bug that only some content triggers: the session's own events still pass.
    const broken = createRedactL1Plugin({
      find: (text) => {
        if (text.includes('GITHUB_TOKEN')) throw new Error('detector bug');
        return detect(text);
      },
    });
    const t = await start([broken, envReaderPlugin]);
    const session = t.session();
    const result = await t.apply('read_env', {}, { session });
    expect(result).toMatchObject({ ok: false, stage: 'ingress:redact-l1-ingress', envelope: { code: 'REDACT_FAILED', category: 'INTERNAL' } });
    expect(t.events(session).map((e) => e.type)).toEqual(['session.created', 'tool.denied']);
    expect(JSON.stringify(t.events(session))).not.toContain(TOKEN);
  });

  it('fails closed in the log too: an event the detector cannot read is not written', async () => {
    const broken = createRedactL1Plugin({
      find: (text) => {
        if (text.includes('paste')) throw new Error('detector bug');
        return detect(text);
      },
    });
    const t = await start([broken, envReaderPlugin]);
    const session = t.session();
    expect(() => t.kernel.append(session, { type: 'message.user', actor: 'user', payload: { text: `paste ${TOKEN}` } })).toThrow(/LOG_FILTER_FAILED|log stage/);
    expect(JSON.stringify(t.events(session))).not.toContain(TOKEN);
  });
});
