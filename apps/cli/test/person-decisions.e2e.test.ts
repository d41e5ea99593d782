import type { LogEvent } from '@nodwyn/protocol';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';

// Each test starts several real `nodwyn` processes; bounded well above what they take on two loaded cores.
const SLOW = { timeout: 120_000 };

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

const SLUGIFY = {
  name: 'slugify',
  description: 'Turns text into a lowercase URL slug.',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  code: "export default (args: { text: string }) => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');",
  examples: [{ args: { text: 'Hello, World!' }, expect: 'hello-world' }],
};

type Outcome = { type: string; name: string; content?: string; code?: string };

function outcomes(stdout: string): Outcome[] {
  return jsonLines(stdout)
    .filter((e: LogEvent) => e.type === 'tool.completed' || e.type === 'tool.failed' || e.type === 'tool.denied')
    .map((e) => ({ type: e.type, name: String(e.payload.name), content: e.payload.content as string | undefined, code: (e.payload.envelope as { code?: string } | undefined)?.code }));
}

/** One scripted model run that makes `calls`, one per reply, then answers "done". */
function modelRun(calls: { name: string; args: unknown }[], extra: string[] = []): Outcome[] {
  const out = box.run(['run', 'work', '--json', ...extra, '--script', box.script([...calls.map((call) => ({ toolCalls: [call] })), { text: 'done' }])]);
  expect(out.code, out.stderr).toBe(0);
  return outcomes(out.stdout);
}

describe('a capability a person stopped stays stopped', () => {
  for (const action of ['rm', 'disable'] as const) {
    it(`after \`nodwyn capability ${action}\`, the model registering it again with the same grants is refused, also with --yes`, SLOW, () => {
      expect(modelRun([{ name: 'register_capability', args: SLUGIFY }]).map((o) => o.type)).toEqual(['tool.completed']);
      const stop = box.run(['capability', action, 'slugify']);
      expect(stop.code, stop.stderr).toBe(0);
      const again = modelRun([{ name: 'register_capability', args: SLUGIFY }, { name: 'slugify', args: { text: 'A b' } }], ['--yes']);
      expect(again[0]).toMatchObject({ type: 'tool.denied', code: 'CAPABILITY_STOPPED' });
      expect(again[1]?.type).not.toBe('tool.completed');
      const list = JSON.parse(box.run(['capability', 'list', '--json']).stdout) as { name: string; status: string; version: number }[];
      expect(list.map((c) => [c.name, c.status, c.version])).toEqual([['slugify', action === 'rm' ? 'removed' : 'disabled', 2]]);
    });
  }
});

describe('a net grant names the host it grants', () => {
  it('refuses api.github.com@127.0.0.16:PORT and 2130706433 at registration, with nothing admitted', SLOW, () => {
    const calls = ['api.github.com@127.0.0.16:4000', '2130706433'].map((host) => ({ name: 'register_capability', args: { ...SLUGIFY, grants: { net: [host] } } }));
    expect(modelRun(calls, ['--yes']).map((o) => [o.type, o.code])).toEqual([
      ['tool.denied', 'TOOL_ARGS_INVALID'],
      ['tool.denied', 'TOOL_ARGS_INVALID'],
    ]);
    expect(box.run(['capability', 'list']).stdout).toBe('No capabilities are registered.\n');
  });
});

describe('an allow-listed git command', () => {
  it('does not run the core.fsmonitor, alias or filter driver the workspace wrote into .git/config', SLOW, () => {
    const markers = mkdtempSync(join(tmpdir(), 'nodwyn-e2e-markers-'));
    try {
      box.write(`${box.home}/config.toml`, '[tools.shell]\nallow = ["git status", "git log *", "git st"]\n');
      const git = (...args: string[]) => execFileSync('git', args, { cwd: box.workspace, stdio: 'pipe', env: box.env });
      git('init', '-q', '.');
      box.write('a.txt', 'one\n');
      box.write('.gitattributes', '*.txt filter=evil\n');
      git('add', '.');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'init');
      box.write('a.txt', 'one\ntwo\n');
      git('config', 'core.fsmonitor', `touch ${join(markers, 'fsmonitor')}; false`);
      git('config', 'alias.st', `!touch ${join(markers, 'alias')}`);
      git('config', 'filter.evil.clean', `touch ${join(markers, 'clean')}; cat`);
      git('config', 'pager.log', `touch ${join(markers, 'pager')}; cat`);
      const ran = modelRun(['git status', 'git log -p', 'git st'].map((command) => ({ name: 'shell', args: { command } })));
      expect(ran.map((o) => [o.type, o.content?.split('\n')[0]])).toEqual([
        ['tool.completed', 'exit code: 0'],
        ['tool.completed', 'exit code: 0'],
        ['tool.completed', 'exit code: 1'],
      ]);
      expect(ran[0]?.content).toContain('modified:   a.txt');
      for (const name of ['fsmonitor', 'alias', 'clean', 'pager']) expect(existsSync(join(markers, name)), name).toBe(false);
    } finally {
      rmSync(markers, { recursive: true, force: true });
    }
  });
});
