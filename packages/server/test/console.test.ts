import { sandboxQuickjsPlugin } from '@nodwyn/plugin-sandbox-quickjs';
import { CapabilitiesHistoryResultSchema, CapabilityChangeResultSchema, LogEventsResultSchema, LogVerifyResultSchema, SecretsListResultSchema } from '@nodwyn/protocol';
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleDaemon, type ConsoleDaemon } from './console-harness.js';
import { rpcFailure } from './harness.js';

type LogPage = { events: { seq: number; type: string; payload: Record<string, unknown> }[]; head: number };
type Bindings = { bindings: { class: string; host: string; path?: string; position: string[]; method: string[] }[] };

let d: ConsoleDaemon;
beforeEach(async () => {
  vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', '');
  d = await consoleDaemon([sandboxQuickjsPlugin]);
});
afterEach(async () => {
  await d.close();
  vi.unstubAllEnvs();
});

/** A session of `events` user messages (plus its `session.created`), written straight to the daemon's log. */
function sessionOf(events: number): string {
  const log = d.daemon.sessions.log;
  const id = `s-${Math.random().toString(36).slice(2)}`;
  log.append(id, { type: 'session.created', actor: 'user', payload: { workspace: d.sandbox.workspace } });
  const drafts = Array.from({ length: events }, (_, i) => ({ type: 'message.user', actor: 'user', payload: { text: `message ${i + 2}` } }));
  if (drafts.length > 0) log.appendBatch(id, drafts);
  return id;
}

describe('_nodwyn/log/events', () => {
  it('pages a session forwards from afterSeq and backwards from beforeSeq, oldest first, with its head', async () => {
    const id = sessionOf(499);
    const first = await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: id });
    // What @nodwyn/client checks each answer against.
    expect(LogEventsResultSchema.safeParse(first).success).toBe(true);
    expect(first.head).toBe(500);
    expect(first.events.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const next = await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: id, afterSeq: 450, limit: 100 });
    expect(next.events.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 451));
    const up = await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: id, beforeSeq: 101, limit: 30 });
    expect(up.events.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 71));
    expect(up.events[0]).toMatchObject({ session: id, type: 'message.user', payload: { text: 'message 71' } });
    const top = await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: id, beforeSeq: 5 });
    expect(top.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect((await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: id, beforeSeq: 1 })).events).toEqual([]);
    expect((await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: id, afterSeq: 500 })).events).toEqual([]);
  });

  it('answers an unknown session, the kernel stream and bad params with envelopes', async () => {
    expect(await rpcFailure(d.agent.request('_nodwyn/log/events', { sessionId: 'nope' }))).toMatchObject({ code: -32002, data: { status: 'error', code: 'SESSION_NOT_FOUND', failed_parameter: '$.sessionId' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/log/events', { sessionId: '_kernel' }))).toMatchObject({ data: { code: 'SESSION_NOT_FOUND' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/log/events', { sessionId: 'x', limit: 5000 }))).toMatchObject({ code: -32602, data: { code: 'PARAMS_INVALID', failed_parameter: '$.limit' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/log/events', {}))).toMatchObject({ code: -32602, data: { failed_parameter: '$.sessionId' } });
    // Still serving.
    expect((await d.agent.request<LogPage>('_nodwyn/log/events', { sessionId: sessionOf(1) })).head).toBe(2);
  });
});

describe('_nodwyn/log/verify', () => {
  it('verifies a session and the whole log, refuses an unknown session, and names an edited event', async () => {
    const id = sessionOf(9);
    expect(await d.agent.request('_nodwyn/log/verify', { sessionId: id })).toEqual({ ok: true, sessions: 1, events: 10 });
    expect(await d.agent.request('_nodwyn/log/verify', {})).toMatchObject({ ok: true });
    expect(await rpcFailure(d.agent.request('_nodwyn/log/verify', { sessionId: 'never-was' }))).toMatchObject({ code: -32002, data: { code: 'SESSION_NOT_FOUND' } });

    const db = new Database(join(d.sandbox.home, 'nodwyn.db'));
    db.exec('DROP TRIGGER IF EXISTS events_no_update');
    db.prepare("UPDATE events SET payload = json_set(payload, '$.text', 'edited') WHERE session = ? AND seq = 4").run(id);
    db.close();
    const verdict = await d.agent.request('_nodwyn/log/verify', { sessionId: id });
    expect(verdict).toMatchObject({ ok: false, session: id, seq: 4 });
    expect(LogVerifyResultSchema.safeParse(verdict).success).toBe(true);
  });
});

describe('_nodwyn/sessions/list cost', () => {
  it("sums each session's priced model calls, reading only what was logged since the last list", async () => {
    const log = d.daemon.sessions.log;
    const priced = sessionOf(1);
    const unpriced = sessionOf(1);
    log.append(priced, { type: 'message.assistant', actor: 'model', payload: { text: 'a', cost_usd: 0.25 } });
    log.append(unpriced, { type: 'message.assistant', actor: 'model', payload: { text: 'b' } });
    const costs = async () => Object.fromEntries((await d.agent.request<{ sessions: { sessionId: string; cost?: number }[] }>('_nodwyn/sessions/list', {})).sessions.map((s) => [s.sessionId, s.cost]));
    expect(await costs()).toEqual({ [priced]: 0.25, [unpriced]: undefined });
    log.append(priced, { type: 'message.assistant', actor: 'model', payload: { text: 'c', cost_usd: 0.5 } });
    expect((await costs())[priced]).toBe(0.75);
  });
});

describe('_nodwyn/bindings/*', () => {
  it('adds and removes bindings through `bind`, answering the table after each change', async () => {
    expect(await d.agent.request('_nodwyn/bindings/list', {})).toEqual({ bindings: [] });
    const added = await d.agent.request<Bindings>('_nodwyn/bindings/add', { class: 'github', host: 'api.github.com', position: ['header:authorization'], method: ['GET', 'POST'] });
    expect(added.bindings).toEqual([{ class: 'github', host: 'api.github.com', position: ['header:authorization'], method: ['GET', 'POST'] }]);
    const second = await d.agent.request<Bindings>('_nodwyn/bindings/add', { class: 'github', host: 'uploads.github.com', path: '/repos', position: ['query:token'], method: ['PUT'] });
    expect(second.bindings).toHaveLength(2);
    expect(second.bindings[1]).toEqual({ class: 'github', host: 'uploads.github.com', path: '/repos', position: ['query:token'], method: ['PUT'] });
    expect(readFileSync(join(d.sandbox.home, 'bindings.toml'), 'utf8')).toContain('uploads.github.com');

    const removed = await d.agent.request<Bindings>('_nodwyn/bindings/remove', { class: 'github', host: 'uploads.github.com' });
    expect(removed.bindings.map((b) => b.host)).toEqual(['api.github.com']);
    expect(await rpcFailure(d.agent.request('_nodwyn/bindings/remove', { class: 'gitlab' }))).toMatchObject({ code: -32002, data: { code: 'BINDING_NOT_FOUND' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/bindings/add', { class: 'x', host: 'a b', position: ['header:authorization'], method: ['GET'] }))).toMatchObject({
      code: -32602,
      data: { failed_parameter: '$.host' },
    });
    expect(await rpcFailure(d.agent.request('_nodwyn/bindings/add', { class: 'x', host: 'h.example', position: [], method: ['GET'] }))).toMatchObject({ code: -32602, data: { code: 'PARAMS_INVALID', failed_parameter: '$.position' } });
    expect((await d.agent.request<Bindings>('_nodwyn/bindings/list', {})).bindings).toHaveLength(1);
  });
});

const SLUGIFY = {
  name: 'slugify',
  description: 'Turns text into a lowercase URL slug.',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  code: "export default (args: { text: string }): string => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');",
  examples: [{ args: { text: 'Hello, World!' }, expect: 'hello-world' }],
};
const SLUGIFY_V2 = { ...SLUGIFY, code: "export default (args: { text: string }) => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '_');", examples: [{ args: { text: 'Hello World' }, expect: 'hello_world' }] };

describe('_nodwyn/capabilities/*', () => {
  async function registered(): Promise<void> {
    const kernel = await d.daemon.sessions.workspaceKernel(d.sandbox.workspace, 'test');
    const session = kernel.sessions.create({ workspace: d.sandbox.workspace });
    for (const args of [SLUGIFY, SLUGIFY_V2]) expect(await kernel.apply({ session, name: 'register_capability', args, origin: 'model' })).toMatchObject({ ok: true });
  }

  it('lists, shows the history with code oldest first, rolls back and disables in the workspace scope', async () => {
    await registered();
    const ws = d.sandbox.workspace;
    const list = await d.agent.request<{ capabilities: { name: string; version: number; status: string }[] }>('_nodwyn/capabilities/list', { workspace: ws });
    expect(list.capabilities).toMatchObject([{ name: 'slugify', version: 2, status: 'active' }]);
    const history = await d.agent.request<{ name: string; versions: { version: number; code: string; current: boolean }[] }>('_nodwyn/capabilities/history', { workspace: ws, name: 'slugify' });
    expect(history.name).toBe('slugify');
    expect(CapabilitiesHistoryResultSchema.safeParse(history).success).toBe(true);
    expect(history.versions.map((v) => [v.version, v.current, v.code])).toEqual([
      [1, false, SLUGIFY.code],
      [2, true, SLUGIFY_V2.code],
    ]);
    expect(await d.agent.request('_nodwyn/capabilities/rollback', { workspace: ws, name: 'slugify', to: 1 })).toMatchObject({ capability: { name: 'slugify', version: 1, status: 'active' } });
    const disabled = await d.agent.request('_nodwyn/capabilities/disable', { workspace: ws, name: 'slugify' });
    expect(disabled).toMatchObject({ capability: { name: 'slugify', version: 3, status: 'disabled' } });
    expect(CapabilityChangeResultSchema.safeParse(disabled).success).toBe(true);

    expect(await rpcFailure(d.agent.request('_nodwyn/capabilities/rollback', { workspace: ws, name: 'slugify', to: 9 }))).toMatchObject({ data: { code: 'CAPABILITY_VERSION_NOT_FOUND', failed_parameter: '$.to' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/capabilities/history', { workspace: ws, name: 'nope' }))).toMatchObject({ code: -32002, data: { status: 'error' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/capabilities/rollback', { workspace: ws, name: 'slugify', to: 0 }))).toMatchObject({ code: -32602, data: { failed_parameter: '$.to' } });
    expect(await rpcFailure(d.agent.request('_nodwyn/capabilities/list', { workspace: join(ws, 'missing') }))).toMatchObject({ data: { status: 'error', failed_parameter: '$.workspace' } });
  });

  it('refuses a workspace whose repository config is not trusted, saying to trust it', async () => {
    const repo = join(d.sandbox.root, 'repo');
    mkdirSync(join(repo, '.nodwyn'), { recursive: true });
    writeFileSync(join(repo, '.nodwyn', 'config.toml'), '[budgets]\nmax_turns = 3\n');
    const failure = await rpcFailure(d.agent.request('_nodwyn/capabilities/list', { workspace: repo }));
    expect(failure).toMatchObject({ data: { code: 'WORKSPACE_UNTRUSTED', category: 'PRECONDITION_FAILED' } });
    expect(String(failure.data.remediation)).toContain('nodwyn trust');
  });
});

describe('_nodwyn/secrets/*', () => {
  const VALUE = 'sv-adversarial-9f8e7d6c5b4a3210-ZYXWVUT';
  const forms = (value: string) => [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('base64url'), Buffer.from(value).toString('hex'), value.slice(5, 30)];

  it('adds a secret whose value reaches the keychain only: not the answers, the log, other files or the output', async () => {
    const output: string[] = [];
    const keep = (stream: NodeJS.WriteStream) => {
      const write = stream.write.bind(stream);
      return vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        output.push(String(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write);
    };
    const spies = [keep(process.stdout), keep(process.stderr), ...(['log', 'error', 'warn', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void output.push(args.map(String).join(' '))))];
    const answers: unknown[] = [];
    try {
      answers.push(await d.agent.request('_nodwyn/secrets/list', {}));
      answers.push(await d.agent.request('_nodwyn/secrets/add', { name: 'github', class: 'github', value: VALUE }));
      answers.push(await d.agent.request('_nodwyn/secrets/list', {}));
      // Refusals carrying the value: an existing name, a bad name, a bad class, a value too long, one of the wrong type.
      answers.push(await rpcFailure(d.agent.request('_nodwyn/secrets/add', { name: 'github', class: 'github', value: VALUE })));
      answers.push(await rpcFailure(d.agent.request('_nodwyn/secrets/add', { name: 'bad name!', class: 'github', value: VALUE })));
      answers.push(await rpcFailure(d.agent.request('_nodwyn/secrets/add', { name: 'other', class: 'bad class!', value: VALUE })));
      answers.push(await rpcFailure(d.agent.request('_nodwyn/secrets/add', { name: 'other', class: 'github', value: VALUE.repeat(2000) })));
      answers.push(await rpcFailure(d.agent.request('_nodwyn/secrets/add', { name: 'other', class: 'github', value: [VALUE] })));
      answers.push(await d.agent.request('_nodwyn/secrets/add', { name: 'github', class: 'github', value: `${VALUE}-2`, force: true }));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(answers[0]).toEqual({ secrets: [] });
    expect(answers[1]).toEqual({ name: 'github', class: 'github' });
    expect(answers[2]).toMatchObject({ secrets: [{ name: 'github', class: 'github', lastUsed: null }] });
    expect(SecretsListResultSchema.safeParse(answers[2]).success).toBe(true);
    expect(answers.slice(3, 8).map((a) => (a as { code: number }).code)).toEqual([-32000, -32602, -32602, -32602, -32602]);
    expect(answers[3]).toMatchObject({ data: { status: 'error', category: 'PRECONDITION_FAILED' } });
    expect(answers[4]).toMatchObject({ data: { code: 'SECRET_NAME_INVALID' } });
    expect(answers[7]).toMatchObject({ data: { code: 'PARAMS_INVALID', failed_parameter: '$.value' } });
    expect(answers[8]).toEqual({ name: 'github', class: 'github' });

    const events = JSON.stringify(d.daemon.sessions.log.sessions().flatMap((row) => d.daemon.sessions.log.read(row.id)));
    const files = readdirSync(d.sandbox.home, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'keychain.json')
      .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'));
    expect(files.some((f) => f.length > 0)).toBe(true);
    for (const form of forms(VALUE)) {
      expect(JSON.stringify(answers), form).not.toContain(form);
      expect(events, form).not.toContain(form);
      expect(output.join(''), form).not.toContain(form);
      for (const file of files) expect(file.includes(form), form).toBe(false);
    }
    expect(readFileSync(join(d.sandbox.home, 'keychain.json'), 'utf8')).not.toContain(VALUE);
    // The process is alive and serving.
    expect(await d.agent.request('_nodwyn/secrets/list', {})).toMatchObject({ secrets: [{ name: 'github' }] });
  });
});
