import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO } from './npm.js';

/** A Verdaccio registry on 127.0.0.1, with its storage and config in a temp folder. */
export interface LocalRegistry {
  readonly url: string;
  /** An auth token for a user created on start, for npm publish. */
  readonly token: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts Verdaccio with `@nodwyn/*` and `@acme/*` served only from its own storage (published by the
 * test) and every other package proxied to `uplink`, so installs resolve zod and the like and no other
 * registry is reached.
 */
export async function startRegistry(dir: string, uplink: string): Promise<LocalRegistry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const local = { access: '$all', publish: '$authenticated' };
  const config = {
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 10 } },
    uplinks: { upstream: { url: uplink, timeout: '30s', max_fails: 2 } },
    packages: { '@nodwyn/*': local, '@acme/*': local, '**': { access: '$all', proxy: 'upstream' } },
    web: { enable: false },
    log: { type: 'stdout', format: 'json', level: 'warn' },
  };
  // YAML is a superset of JSON, so Verdaccio reads this as its config.
  writeFileSync(join(dir, 'config.yaml'), JSON.stringify(config));
  const child: ChildProcess = spawn(process.execPath, [join(REPO, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ping = await fetch(`${url}-/ping`).then((r) => r.ok, () => false);
    if (ping) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`verdaccio did not start on ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const response = await fetch(`${url}-/user/org.couchdb.user:tester`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'tester-password' }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!response.ok || token === undefined) {
    await stop();
    throw new Error(`verdaccio refused the test user (${response.status})`);
  }
  return { url, token, stop };
}
