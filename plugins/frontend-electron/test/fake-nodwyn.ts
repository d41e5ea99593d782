import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodwynCommand } from '../src/main/node-daemon-spawner.js';

/**
 * A stand-in for `nodwyn serve --port 0`, run by real Node: it reads $NODWYN_HOME/config.toml and, when the
 * file holds `broken = true`, writes an error to stderr and exits 2 (a daemon that fails on its config);
 * otherwise it listens on 127.0.0.1 (port 0), writes serve.json, prints its ws URL and serves
 * `POST /_nodwyn/login-link` (with the bearer token) until SIGTERM, when it removes serve.json, as the
 * real daemon does.
 */
const SCRIPT = `
const { readFileSync, writeFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const http = require('node:http');
const home = process.env.NODWYN_HOME;
let config = '';
try { config = readFileSync(join(home, 'config.toml'), 'utf8'); } catch {}
if (/broken\\s*=\\s*true/.test(config)) {
  process.stderr.write('config.toml: [model] broken is not a setting nodwyn knows\\n');
  process.exit(2);
}
let token = '';
const server = http.createServer((req, res) => {
  const port = server.address().port;
  if (req.method === 'POST' && req.url === '/_nodwyn/login-link' && req.headers.authorization === 'Bearer ' + token) {
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify({ url: 'http://127.0.0.1:' + port + '/login?t=once-' + Date.now(), expiresInMs: 60000 }));
  }
  res.statusCode = 401;
  res.end('{}');
});
server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  token = 'tok-' + process.pid;
  const file = { url: 'ws://127.0.0.1:' + port + '/acp', http: 'http://127.0.0.1:' + port + '/', token, pid: process.pid };
  writeFileSync(join(home, 'serve.json'), JSON.stringify(file));
  process.stdout.write(file.url + '\\n');
});
process.on('SIGTERM', () => { rmSync(join(home, 'serve.json'), { force: true }); process.exit(0); });
`;

/** A temp folder with the fake daemon script; the NodwynCommand that runs it with this Node. */
export function fakeNodwyn(): { dir: string; command: NodwynCommand } {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-fake-cli-'));
  const script = join(dir, 'fake-nodwyn.cjs');
  writeFileSync(script, SCRIPT);
  chmodSync(script, 0o755);
  return { dir, command: { command: process.execPath, args: [script] } };
}
