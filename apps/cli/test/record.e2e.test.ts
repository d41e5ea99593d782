import { EventLog } from '@nodwyn/kernel';
import { contentHash, PLUGIN_NAME, type CapabilityVersion } from '@nodwyn/plugin-capabilities';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';

// Several real `nodwyn` processes per test, each bounded at 30 s by CliSandbox.
const SLOW = { timeout: 120_000 };
const TOKEN = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

const db = () => join(box.home, 'nodwyn.db');
const key = () => join(box.home, 'log.key');

/** One scripted session; returns its id. */
function oneSession(): string {
  const run = box.run(['run', 'hello', '--script', box.script([{ text: 'hi' }])]);
  expect(run.code, run.stderr).toBe(0);
  return box.sessions()[0]!.id;
}

describe('the record cannot be rewritten quietly (nodwyn log verify, fork, open)', () => {
  it('names a session deleted whole (events and checkpoints) with SQL', SLOW, () => {
    const kept = oneSession();
    const deleted = oneSession();
    const raw = new Database(db());
    for (const name of ['events_no_delete', 'checkpoints_no_delete']) raw.exec(`DROP TRIGGER IF EXISTS ${name}`);
    for (const table of ['events', 'checkpoints']) raw.prepare(`DELETE FROM ${table} WHERE session = ?`).run(deleted);
    raw.close();
    const verify = box.run(['log', 'verify']);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain(`session ${deleted}`);
    expect(verify.stdout).toContain('session_missing');
    expect(verify.stdout).not.toContain(kept);
  });

  it('reports a payload respelled with a duplicate key, which parses to the same value and hash', SLOW, () => {
    const session = oneSession();
    const raw = new Database(db());
    raw.exec('DROP TRIGGER IF EXISTS events_no_update');
    const row = raw.prepare('SELECT seq, payload FROM events WHERE session = ? AND type = ?').get(session, 'message.user') as { seq: number; payload: string };
    // {"text":"hello"} becomes {"text":"planted","text":"hello"}: JSON.parse keeps "hello", SQL reads "planted".
    raw.prepare('UPDATE events SET payload = ? WHERE session = ? AND seq = ?').run(row.payload.replace('{', '{"text":"planted",'), session, row.seq);
    raw.close();
    const verify = box.run(['log', 'verify', session]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain(`seq ${row.seq}: malformed`);
  });

  it('refuses to open a log whose log.key was deleted, with LOG_KEY_MISSING, instead of making a new key', SLOW, () => {
    oneSession();
    rmSync(key());
    const run = box.run(['run', 'again', '--script', box.script([{ text: 'hi' }])]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('LOG_KEY_MISSING');
    expect(run.stderr).toMatch(/1 session\(s\).*Restore/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const verify = box.run(['log', 'verify']);
    expect(verify.stderr).toContain('LOG_KEY_MISSING');
    expect(verify.stdout).not.toContain('FAILED');
  });

  it('forks through the log stages: a secret in the copied title is redacted in the fork', SLOW, () => {
    oneSession();
    // A session written without the text layers (by an older nodwyn, or another tool using the kernel).
    const log = EventLog.open({ path: db(), keyPath: key() });
    log.append('s-raw', { type: 'session.created', actor: 'kernel', payload: { workspace: box.workspace, title: `deploy with ${TOKEN}` } });
    log.close();
    const fork = box.run(['fork', 's-raw']);
    expect(fork.code, fork.stderr).toBe(0);
    const created = box.events(fork.stdout.trim())[0]!;
    expect(created.payload.forked_from).toEqual({ session: 's-raw', seq: 1 });
    expect(JSON.stringify(created.payload)).not.toContain(TOKEN);
    expect(String(created.payload.title)).toContain('[REDACTED');
  });

  it('refuses a capability whose stored code and hash were rewritten with SQL; capability list marks it, log verify still says intact', SLOW, () => {
    const slugify = {
      name: 'slugify',
      description: 'Turns text into a lowercase URL slug.',
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      code: "export default (args: { text: string }) => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-');",
      examples: [{ args: { text: 'A B' }, expect: 'a-b' }],
    };
    const admitted = box.run(['run', 'work', '--script', box.script([{ toolCalls: [{ name: 'register_capability', args: slugify }] }, { text: 'ok' }])]);
    expect(admitted.code, admitted.stderr).toBe(0);
    const raw = new Database(db());
    const row = raw.prepare('SELECT value FROM plugin_store WHERE plugin = ? AND key = ?').pluck().get(PLUGIN_NAME, 'version/slugify/00000001') as string;
    const evil = "export default () => 'evil'";
    const edited = { ...(JSON.parse(row) as CapabilityVersion), code: evil, compiled: evil };
    raw.prepare('UPDATE plugin_store SET value = ? WHERE plugin = ? AND key = ?').run(JSON.stringify({ ...edited, hash: contentHash(edited) }), PLUGIN_NAME, 'version/slugify/00000001');
    raw.close();

    const called = box.run(['run', 'slug it', '--json', '--script', box.script([{ toolCalls: [{ name: 'execute_capability', args: { name: 'slugify', args: { text: 'x' } } }] }, { text: 'done' }])]);
    const outcome = jsonLines(called.stdout).find((e) => e.type.startsWith('tool.') && e.type !== 'tool.requested');
    expect(outcome?.payload).toMatchObject({ envelope: { code: 'CAPABILITY_TAMPERED' } });
    expect(called.stdout).not.toContain('"content":"evil"');
    expect(box.run(['capability', 'list']).stdout).toMatch(/slugify\s+v1\s+tampered/);
    // The registry rows are the plugin's store, not the log: the log was not edited, so it verifies.
    expect(box.run(['log', 'verify']).stdout).toMatch(/^log intact/);
  });
});
