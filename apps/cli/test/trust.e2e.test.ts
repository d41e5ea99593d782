import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines, notices } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

const UNTRUSTED = 'nodwyn: ignoring .nodwyn/config.toml (not trusted; review it and run `nodwyn trust`)\n';
const CHANGED = 'nodwyn: ignoring .nodwyn/config.toml (changed since you trusted it; review it and run `nodwyn trust`)\n';
const ALLOW_ECHO = '[tools.shell]\nallow = ["echo *"]\n';

/** A run whose only tool call is `echo allowed` in the shell, a destructive call that needs a confirmation. */
function shellRun(cwd = box.workspace) {
  const script = box.script([{ toolCalls: [{ name: 'shell', args: { command: 'echo allowed' } }] }, { text: '{{lastToolResult}}' }]);
  return box.run(['run', 'x', '--script', script], undefined, cwd);
}

function status(cwd = box.workspace): { status: string; changes: string[] } {
  const out = box.run(['trust', '--status', '--json'], undefined, cwd);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as { status: string; changes: string[] };
}

function trustYes(cwd = box.workspace) {
  const out = box.run(['trust', '--yes'], undefined, cwd);
  expect(out.code, out.stderr).toBe(0);
  return out;
}

describe('nodwyn trust: untrusted, trusted, changed, revoked', () => {
  it('ignores an untrusted .nodwyn/config.toml entirely, with one notice on stderr', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    const out = shellRun();
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('CONFIRMATION_REQUIRED');
    expect(notices(out.stderr)).toBe(UNTRUSTED);
    expect(status().status).toBe('untrusted');
  });

  it('shows the files off a terminal but records nothing without --yes', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    const out = box.run(['trust']);
    expect(out.code).toBe(3);
    expect(out.stdout).toContain(`--- .nodwyn/config.toml (${ALLOW_ECHO.length} bytes)\n${ALLOW_ECHO}--- end of .nodwyn/config.toml`);
    expect(out.stdout).toContain('nodwyn will apply: tools.shell.allow\n');
    expect(out.stderr).toContain('TRUST_CONFIRMATION_REQUIRED');
    expect(existsSync(join(box.home, 'trust.json'))).toBe(false);
    expect(status().status).toBe('untrusted');
  });

  it('applies the allow-list once trusted, ignores it again after an edit, and applies it once re-trusted', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    expect(trustYes().stdout).toMatch(/^trusted .*\/workspace\/\.nodwyn \(1 file\(s\), sha256:[0-9a-f]{64}\)$/m);
    const trusted = shellRun();
    expect([trusted.stdout, notices(trusted.stderr)]).toEqual([expect.stringContaining('allowed\n'), '']);
    expect(trusted.stdout).not.toContain('CONFIRMATION_REQUIRED');

    box.write('.nodwyn/config.toml', `${ALLOW_ECHO}# one more line\n`);
    const edited = shellRun();
    expect(edited.stdout).toContain('CONFIRMATION_REQUIRED');
    expect(notices(edited.stderr)).toBe(CHANGED);
    expect(status()).toMatchObject({ status: 'changed', changes: ['config.toml (changed)'] });
    expect(box.run(['trust', '--status']).stdout).toMatch(/^changed: .*\.nodwyn \(config\.toml \(changed\); review it/);

    expect(trustYes().stdout).toMatch(/^Changed since you trusted it \(.+\): config\.toml \(changed\)\.$/m);
    expect(shellRun().stdout).not.toContain('CONFIRMATION_REQUIRED');
    expect(status().status).toBe('trusted');
  });

  it('treats the whole .nodwyn/ folder as the reviewed unit: a new file anywhere in it is a change', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    trustYes();
    box.write('.nodwyn/hooks/init.sh', 'echo hi\n');
    expect(status()).toMatchObject({ status: 'changed', changes: ['hooks/init.sh (added)'] });
    expect(notices(shellRun().stderr)).toBe('nodwyn: ignoring .nodwyn/ (changed since you trusted it; review it and run `nodwyn trust`)\n');
  });

  it('--revoke forgets the trust, and the config is ignored again', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    trustYes();
    expect(box.run(['trust', '--revoke']).stdout).toBe(`revoked trust in ${box.workspace}\n`);
    const out = shellRun();
    expect([out.stdout, notices(out.stderr)]).toEqual([expect.stringContaining('CONFIRMATION_REQUIRED'), UNTRUSTED]);
    const store = JSON.parse(readFileSync(join(box.home, 'trust.json'), 'utf8')) as { workspaces: Record<string, unknown> };
    expect(store.workspaces).toEqual({});
    expect(box.run(['trust', '--revoke']).stdout).toBe(`${box.workspace} was not trusted\n`);
    expect(box.run(['trust', '--revoke', '--status']).code).toBe(2);
  });

  it('applies a trusted repository budget, and none while untrusted', () => {
    box.write('.nodwyn/config.toml', '[budgets]\nmax_turns = 1\n');
    const script = box.script([{ toolCalls: [{ name: 'list_dir', args: {} }] }, { text: 'done' }]);
    expect(box.run(['run', 'x', '--script', script]).code).toBe(0);
    trustYes();
    const stopped = box.run(['run', 'x', '--script', script]);
    expect([stopped.code, stopped.stderr]).toEqual([4, expect.stringContaining('BUDGET_TURNS')]);
  });

  it('says there is nothing to trust without .nodwyn/, and prints no notice there', () => {
    const out = box.run(['trust', '--yes']);
    expect([out.code, out.stderr]).toEqual([3, expect.stringContaining('TRUST_NOTHING_TO_TRUST')]);
    expect(box.run(['trust', '--status']).stdout).toMatch(/^none: no repository configuration in /);
    expect(notices(box.run(['run', 'x', '--script', box.script([{ text: 'ok' }])]).stderr)).toBe('');
  });
});

describe('nodwyn trust: where trust lives and what a repository may set', () => {
  it('is per workspace path: a copy elsewhere is untrusted, the same folder through a symlink is trusted', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    trustYes();
    const copy = join(box.root, 'copy');
    cpSync(box.workspace, copy, { recursive: true });
    const out = shellRun(copy);
    expect([out.stdout, notices(out.stderr)]).toEqual([expect.stringContaining('CONFIRMATION_REQUIRED'), UNTRUSTED]);
    expect(status(copy).status).toBe('untrusted');
    const link = join(box.root, 'link');
    symlinkSync(box.workspace, link);
    expect(status(link).status).toBe('trusted');
  });

  it('keeps the store in the data dir, mode 0600, written whole, and writes nothing into the workspace', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    const before = readdirSync(box.workspace, { recursive: true }).sort();
    trustYes();
    expect(readdirSync(box.workspace, { recursive: true }).sort()).toEqual(before);
    const path = join(box.home, 'trust.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(box.home).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const store = JSON.parse(readFileSync(path, 'utf8')) as { workspaces: Record<string, { hash: string; files: { path: string }[] }> };
    expect(Object.keys(store.workspaces)).toEqual([box.workspace]);
    expect(store.workspaces[box.workspace]!.files.map((f) => f.path)).toEqual(['config.toml']);
  });

  it('stops with an envelope on a damaged trust store, and never overwrites it', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    const path = box.write(join(box.home, 'trust.json'), '{ not json');
    const run = shellRun();
    expect([run.code, run.stderr]).toEqual([3, expect.stringContaining('TRUST_STORE_CORRUPT')]);
    expect(run.stderr).toContain(path);
    expect(box.run(['trust', '--yes']).code).toBe(3);
    expect(box.run(['trust', '--revoke']).code).toBe(3);
    expect(readFileSync(path, 'utf8')).toBe('{ not json');

    box.write(path, JSON.stringify({ version: 1, workspaces: { '/x': { hash: 'md5:1', trusted_at: 'now', files: [] } } }));
    const json = box.run(['trust', '--status', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'TRUST_STORE_CORRUPT', failed_parameter: '$.workspaces["/x"].hash' });

    const plain = join(box.root, 'plain');
    mkdirSync(plain);
    const elsewhere = box.run(['run', 'x', '--script', box.script([{ text: 'fine' }])], undefined, plain);
    expect([elsewhere.code, elsewhere.stdout, notices(elsewhere.stderr)]).toEqual([0, 'fine\n', '']);
  });

  it('keeps --json stdout pure JSON lines while the notice goes to stderr', () => {
    box.write('.nodwyn/config.toml', ALLOW_ECHO);
    const out = box.run(['run', 'x', '--json', '--script', box.script([{ text: 'ok' }])]);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(() => lines.map((l) => JSON.parse(l) as unknown)).not.toThrow();
    expect(jsonLines(out.stdout).map((e) => e.type)).toEqual(['session.created', 'session.titled', 'message.user', 'turn.started', 'context.added', 'context.added', 'message.assistant', 'turn.ended']);
    expect(out.stderr).toBe(UNTRUSTED);
  });
});
