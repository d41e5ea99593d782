// A loopback wire server in its own process, so a benchmark's client is not charged for the server's
// work: `node --conditions=@nodwyn/source --import tsx wire-serve.ts DIALECT REPLIES.json` prints its URL
// on stdout and serves until its stdin closes.
import { readFileSync } from 'node:fs';
import { startWireServer } from '../../packages/testing/src/wire/wire-server.js';
import type { WireDialect, WireReply } from '../../packages/testing/src/wire/wire-reply.js';

const [dialect, file] = process.argv.slice(2) as [WireDialect, string];
const server = await startWireServer(dialect, JSON.parse(readFileSync(file, 'utf8')) as WireReply[]);
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
