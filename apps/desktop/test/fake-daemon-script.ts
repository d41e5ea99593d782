/**
 * A stand-in for the nodwyn CLI (`serve --port 0`), run by real Node: listens on 127.0.0.1, writes
 * serve.json, prints its ws URL, answers `POST /_nodwyn/login-link` with the bearer token, and removes
 * serve.json on SIGTERM, as the daemon does.
 */
export const FAKE_DAEMON_SCRIPT = `
const { writeFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const http = require('node:http');
const home = process.env.NODWYN_HOME;
const token = 'tok-' + process.pid;
const server = http.createServer((req, res) => {
  const origin = 'http://127.0.0.1:' + server.address().port;
  if (req.method === 'POST' && req.url === '/_nodwyn/login-link' && req.headers.authorization === 'Bearer ' + token) {
    return res.end(JSON.stringify({ url: origin + '/login?t=one-time', expiresInMs: 60000 }));
  }
  res.statusCode = 401;
  res.end('{}');
});
server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  writeFileSync(join(home, 'serve.json'), JSON.stringify({ url: 'ws://127.0.0.1:' + port + '/acp', http: 'http://127.0.0.1:' + port + '/', token, pid: process.pid }));
  process.stdout.write('ws://127.0.0.1:' + port + '/acp\\n');
});
process.on('SIGTERM', () => { rmSync(join(home, 'serve.json'), { force: true }); process.exit(0); });
`;
