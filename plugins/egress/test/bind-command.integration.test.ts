import type { CommandIO } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackServer, startEgress, useTempHome } from './fixtures.js';

const home = useTempHome();
let t: TestKernel | undefined;

afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function bind(args: string[], options: Record<string, unknown> = {}): Promise<{ code: number; out: string }> {
  t ??= await startEgress();
  let out = '';
  const io: CommandIO = { stdin: process.stdin, write: (text) => void (out += text), error: (text) => void (out += text), interactive: false };
  const code = await t.kernel.commands.get('bind').item.run({ args, options, io });
  return { code, out };
}

async function failure(args: string[], options: Record<string, unknown> = {}) {
  const error = await bind(args, options).then(
    () => undefined,
    (e: unknown) => e as { envelope: { code: string; failed_parameter: string | null; remediation: string } },
  );
  if (!error) throw new Error('expected the command to fail');
  return error.envelope;
}

describe('nodwyn bind', () => {
  it('adds a binding to bindings.toml in NODWYN_HOME, private and without temp files left', async () => {
    const added = await bind(['add', 'github'], { host: 'API.GitHub.com', position: ['header:Authorization,query:access_token'], method: ['get,POST'] });
    expect(added.code).toBe(0);
    expect(added.out).toContain('github → api.github.com (header:Authorization, query:access_token; GET, POST)');
    const file = join(home.dir(), 'bindings.toml');
    expect(parse(readFileSync(file, 'utf8'))).toEqual({
      github: [{ host: 'api.github.com', positions: ['header:Authorization', 'query:access_token'], methods: ['GET', 'POST'] }],
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(home.dir())).toEqual(['bindings.toml']);
  });

  it('merges a second add to the same host and path, and keeps other destinations apart', async () => {
    await bind(['add', 'github'], { host: 'api.github.com', position: 'header:Authorization', method: 'GET' });
    await bind(['add', 'github'], { host: 'api.github.com', position: ['header:authorization', 'basic'], method: ['GET', 'PUT'] });
    await bind(['add', 'github'], { host: 'uploads.github.com:8443', path: '/repos', position: 'body', method: 'POST' });
    const listed = await bind(['list'], { json: true });
    expect(JSON.parse(listed.out)).toEqual({
      github: [
        { host: 'api.github.com', positions: ['header:Authorization', 'basic'], methods: ['GET', 'PUT'] },
        { host: 'uploads.github.com:8443', path_prefix: '/repos', positions: ['body'], methods: ['POST'] },
      ],
    });
    expect((await bind(['list'])).out).toBe(
      'github → api.github.com (header:Authorization, basic; GET, PUT)\ngithub → uploads.github.com:8443/repos (body; POST)\n',
    );
  });

  it('removes one host of a class, then the whole class, and says when nothing matched', async () => {
    await bind(['add', 'github'], { host: 'api.github.com', position: 'header:Authorization', method: 'GET' });
    await bind(['add', 'github'], { host: 'gist.github.com', position: 'header:Authorization', method: 'GET' });
    await bind(['add', 'npm'], { host: 'registry.npmjs.org', position: 'header:Authorization', method: 'GET' });
    expect((await bind(['rm', 'github'], { host: 'gist.github.com' })).out).toBe('Removed 1 binding of github.\n');
    expect(Object.keys(JSON.parse((await bind(['list'], { json: true })).out))).toEqual(['github', 'npm']);
    await bind(['rm', 'github']);
    expect(JSON.parse((await bind(['list'], { json: true })).out)).toEqual({ npm: expect.any(Array) });
    expect((await failure(['rm', 'github'])).code).toBe('BINDING_NOT_FOUND');
  });

  it('names the flag at fault for a malformed add', async () => {
    expect(await failure(['add', 'github'], { host: 'https://api.github.com', position: 'header:A', method: 'GET' })).toMatchObject({ code: 'BIND_USAGE', failed_parameter: '--host' });
    expect(await failure(['add', 'github'], { host: 'api.github.com', position: 'cookie:session', method: 'GET' })).toMatchObject({ failed_parameter: '--position' });
    expect(await failure(['add', 'github'], { host: 'api.github.com', position: 'basic', method: 'FETCH' })).toMatchObject({ failed_parameter: '--method' });
    expect(await failure(['add', 'github'], { host: 'api.github.com', method: 'GET' })).toMatchObject({ failed_parameter: '--position' });
    expect(await failure(['add'], {})).toMatchObject({ code: 'BIND_USAGE' });
    expect(await failure(['grant', 'github'], {})).toMatchObject({ failed_parameter: 'ACTION' });
  });

  it('reports a broken bindings.toml with its line instead of overwriting it', async () => {
    home.write('[[github]\nhost = 1\n');
    const env = await failure(['add', 'github'], { host: 'api.github.com', position: 'basic', method: 'GET' });
    expect(env.code).toBe('BINDINGS_INVALID_TOML');
    expect(env.remediation).toContain('line 1');
    expect(readFileSync(join(home.dir(), 'bindings.toml'), 'utf8')).toBe('[[github]\nhost = 1\n');
  });

  it('writes a binding the egress stage honours on the next call', async () => {
    const s = await loopbackServer();
    try {
      await bind(['add', 'github'], { host: s.host, position: 'header:Authorization', method: 'GET' });
      const result = await t!.apply('http_request', { method: 'GET', url: s.origin, headers: { Authorization: '{{secret:github}}' } });
      expect(result.ok).toBe(true);
      expect(s.seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
