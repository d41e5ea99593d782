import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';

/** Whether this tree has the terminal front end's package (it is optional in the default distribution). */

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

/** Writes a third-party plugin package into `root`'s node_modules (the config folder by default). */
function thirdParty(name: string, body: string, apiVersion = '^0.1.0', root = box.home): void {
  box.write(`${root}/node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js' }));
  box.write(
    `${root}/node_modules/${name}/index.js`,
    `export default { manifest: { name: ${JSON.stringify(name)}, version: '1.0.0', apiVersion: ${JSON.stringify(apiVersion)}, provides: [], requires: [], permissions: [] }, register() {}, ${body} };\n`,
  );
}

describe('nodwyn plugins and the distribution', () => {
  it('lists the default distribution as started', () => {
    const out = box.run(['plugins', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { name: string; state: string; apiVersion: string; optional: boolean; envelope?: { code: string } }[];
    expect(report.map((p) => [p.name, p.state])).toEqual([
      ['@nodwyn/plugin-tools-core', 'started'],
      ['@nodwyn/plugin-loop-default', 'started'],
      ['@nodwyn/plugin-context-default', 'started'],
      ['@nodwyn/plugin-keychain', 'started'],
      ['@nodwyn/plugin-redact-l1', 'started'],
      ['@nodwyn/plugin-redact-l2', 'started'],
      ['@nodwyn/plugin-egress', 'started'],
      ['@nodwyn/plugin-judge', 'started'],
      ['@nodwyn/plugin-sandbox-quickjs', 'started'],
      ['@nodwyn/plugin-sandbox-deno', 'started'],
      ['@nodwyn/plugin-sandbox-node', 'started'],
      ['@nodwyn/plugin-capabilities', 'started'],
      ['@nodwyn/plugin-memory', 'started'],
      ['@nodwyn/plugin-openapi', 'started'],
      ['@nodwyn/plugin-mcp', 'started'],
      ['@nodwyn/plugin-provider-anthropic', 'started'],
      ['@nodwyn/plugin-provider-openai', 'started'],
      ['@nodwyn/plugin-provider-scripted', 'started'],
      ['@nodwyn/plugin-frontend-tui', 'started'],
      ['@nodwyn/plugin-frontend-web', 'started'],
      ['@nodwyn/plugin-frontend-electron', 'started'],
    ]);
    const tui = report.find((p) => p.name === '@nodwyn/plugin-frontend-tui');
    expect([tui?.optional, tui?.envelope]).toEqual([true, undefined]);
  });

  it('has the terminal front end as its default front end', () => {
    const out = box.run(['plugins']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/\ntui\s+\S+\s+\*\s+/);
  });

  it('reports an incompatible plugin and one that throws in start, and keeps working', () => {
    thirdParty('future-plugin', '', '^9.0.0');
    thirdParty('broken-plugin', "start() { throw new Error('cannot start'); }");
    box.write(
      `${box.home}/config.toml`,
      '[[distribution.plugins]]\npackage = "future-plugin"\nrange = "^1.0.0"\n\n[[distribution.plugins]]\npackage = "broken-plugin"\nrange = "^1.0.0"\n',
    );
    box.approve('future-plugin', 'broken-plugin');
    const report = JSON.parse(box.run(['plugins', '--json']).stdout) as { name: string; state: string; envelope?: { code: string; plugin: string } }[];
    const byName = Object.fromEntries(report.map((p) => [p.name, p]));
    expect(byName['future-plugin']).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_API_INCOMPATIBLE', plugin: 'future-plugin' } });
    expect(byName['broken-plugin']).toMatchObject({ state: 'failed', envelope: { plugin: 'broken-plugin' } });
    expect(byName['@nodwyn/plugin-tools-core']?.state).toBe('started');
    const human = box.run(['plugins']).stdout;
    expect(human).toMatch(/future-plugin\s+1\.0\.0\s+\^9\.0\.0\s+failed\s+PLUGIN_API_INCOMPATIBLE/);
    const run = box.run(['run', 'x', '--script', box.script([{ text: 'still here' }])]);
    expect([run.code, run.stdout]).toEqual([0, 'still here\n']);
  });

  it('lists the front ends plugins provide, which plugin provides each and which is the default', () => {
    const frontend = (id: string) => `{ id: '${id}', description: 'The ${id} front end, for testing.', start: async () => 0 }`;
    for (const id of ['line', 'grid']) {
      const name = `frontend-${id}`;
      box.write(`${box.home}/node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js' }));
      const manifest = { name, version: '1.0.0', apiVersion: '^0.1.0', provides: [`frontend:${id}`] };
      box.write(`${box.home}/node_modules/${name}/index.js`, `export default { manifest: ${JSON.stringify(manifest)}, register(ctx) { ctx.frontends.register(${frontend(id)}); } };\n`);
    }
    box.write(
      `${box.home}/config.toml`,
      '[distribution]\nfrontend = "grid"\n\n[[distribution.plugins]]\npackage = "frontend-line"\nrange = "^1.0.0"\n\n[[distribution.plugins]]\npackage = "frontend-grid"\nrange = "^1.0.0"\n',
    );
    box.approve('frontend-line', 'frontend-grid');
    const out = box.run(['plugins', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { name: string; state: string; frontends: { id: string; description: string; default: boolean }[] }[];
    expect(report.filter((p) => p.frontends.length > 0).map((p) => [p.name, p.state, p.frontends])).toEqual([
      ['@nodwyn/plugin-frontend-tui', 'started', [{ id: 'tui', description: expect.stringContaining('terminal UI'), default: false }]],
      ['@nodwyn/plugin-frontend-web', 'started', [{ id: 'web', description: expect.stringContaining('web console'), default: false }]],
      ['@nodwyn/plugin-frontend-electron', 'started', [{ id: 'desktop', description: expect.stringContaining('desktop'), default: false }]],
      ['frontend-line', 'started', [{ id: 'line', description: 'The line front end, for testing.', default: false }]],
      ['frontend-grid', 'started', [{ id: 'grid', description: 'The grid front end, for testing.', default: true }]],
    ]);
    expect(report.find((p) => p.name === '@nodwyn/plugin-tools-core')?.frontends).toEqual([]);
    const human = box.run(['plugins']).stdout;
    expect(human).toMatch(/\nFRONTEND\s+PLUGIN\s+DEFAULT\s+DESCRIPTION\ntui\s+@nodwyn\/plugin-frontend-tui\s+The terminal UI[^\n]*\nweb\s+@nodwyn\/plugin-frontend-web\s+The web console[^\n]*\ndesktop\s+@nodwyn\/plugin-frontend-electron\s+[^\n]*\nline\s+frontend-line\s+The line front end, for testing\.\ngrid\s+frontend-grid\s+\*\s+The grid front end, for testing\.\n$/);
  });

  it('says so when the default front end is one no started plugin provides', () => {
    box.write(`${box.home}/config.toml`, '[distribution]\nfrontend = "kiosk"\n');
    const out = box.run(['plugins']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/\nkiosk\s+-\s+\*\s+the default front end, but no started plugin provides it\n$/);
  });

  it('never loads a plugin from the workspace, so a cloned repository cannot add code to the agent', () => {
    thirdParty('repo-plugin', "register() { throw new Error('repository code ran'); }", '^0.1.0', box.workspace);
    box.write(`${box.home}/config.toml`, '[[distribution.plugins]]\npackage = "repo-plugin"\nrange = "^1.0.0"\n');
    const report = JSON.parse(box.run(['plugins', '--json']).stdout) as { name: string; state: string; envelope?: { code: string } }[];
    expect(report.find((p) => p.name === 'repo-plugin')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_NOT_FOUND' } });
  });

  it('lists the model-visible tools with tier and input schema', () => {
    const tools = JSON.parse(box.run(['tools', '--json']).stdout) as { name: string; tier: string; input_schema: { type: string } }[];
    expect(tools.map((t) => t.name)).toEqual([
      'edit_file',
      'execute_capability',
      'glob',
      'grep',
      'http_request',
      'list_capabilities',
      'list_dir',
      'read_file',
      'recall',
      'register_capability',
      'search_history',
      'search_repo',
      'search_session',
      'shell',
      'write_file',
    ]);
    expect(tools.find((t) => t.name === 'shell')?.tier).toBe('destructive');
    for (const t of tools) expect(t.input_schema.type).toBe('object');
  });
});

describe('nodwyn log', () => {
  function oneSession(): string {
    const out = box.run(['run', 'x', '--script', box.script([{ toolCalls: [{ name: 'list_dir', args: {} }] }, { text: 'ok' }])]);
    expect(out.code, out.stderr).toBe(0);
    return box.sessions()[0]!.id;
  }

  function tamper(sql: (db: Database.Database) => void): void {
    const db = new Database(`${box.home}/nodwyn.db`);
    for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string }[]) db.exec(`DROP TRIGGER ${name}`);
    sql(db);
    db.close();
  }

  it('verify names the seq of an edited event and exits 1', () => {
    const session = oneSession();
    tamper((db) => db.prepare("UPDATE events SET payload = replace(payload, 'ok', 'KO') WHERE session = ? AND type = 'turn.ended'").run(session));
    const out = box.run(['log', 'verify']);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(new RegExp(`session ${session}, seq 10: hash_mismatch`));
  });

  it('verify names the first missing seq of a cut tail', () => {
    const session = oneSession();
    tamper((db) => db.prepare('DELETE FROM events WHERE session = ? AND seq >= 6').run(session));
    const out = box.run(['log', 'verify', session]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('seq 6: truncated');
  });

  it('shows a session for people and as JSON', () => {
    const session = oneSession();
    expect(box.run(['log', 'show', session]).stdout).toMatch(/7\s+\S+\s+message\.assistant\s+model\s+→ list_dir/);
    expect(box.run(['log', 'show', session]).stdout).toMatch(/5\s+\S+\s+context\.added\s+kernel\s+agent\.brief from nodwyn \(\d+ tokens\)/);
    expect(jsonLines(box.run(['log', 'show', session, '--json']).stdout)).toHaveLength(10);
    const missing = box.run(['log', 'show', 'no-such-session']);
    expect([missing.code, missing.stderr]).toEqual([3, expect.stringContaining('SESSION_NOT_FOUND')]);
  });

  it('forks a session and replays one', () => {
    const session = oneSession();
    const fork = box.run(['fork', session, '--at', '6']);
    expect(fork.code, fork.stderr).toBe(0);
    const forked = fork.stdout.trim();
    const resumed = box.run(['run', 'and now?', '--session', forked, '--script', box.script([{ text: 'saw: {{lastToolResult}}' }])]);
    expect(resumed.stdout).toMatch(/^saw: /);
    const replay = box.run(['run', '--provider', 'replay', '--session', session, '--json']);
    expect(replay.code, replay.stderr).toBe(0);
    const replayed = jsonLines(replay.stdout);
    expect(replayed[0]!.payload.replay_of).toBe(session);
    expect(replayed.at(-1)!.payload.answer).toBe('ok');
  });
});
