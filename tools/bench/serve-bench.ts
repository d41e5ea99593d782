import { connectNode, readServeInfo } from '@nodwyn/client/node';
import { EventLog } from '@nodwyn/kernel';
import type { ClientEvent } from '@nodwyn/protocol';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWireServer } from '../../packages/testing/src/wire/wire-server.js';
import { percentile, type Row } from './stats.js';

const clientInfo = { name: 'bench', version: '1.0.0' };

/** A `nodwyn serve --port 0` of its own home, with `config` as its config.toml. */
async function daemon(bin: string, dir: string, name: string, config: string): Promise<{ home: string; workspace: string; child: ChildProcess; stop(): Promise<void> }> {
  const home = join(dir, `serve-${name}`);
  const workspace = join(dir, `serve-${name}-workspace`);
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(home, 'config.toml'), config);
  writeFileSync(join(workspace, 'hello.txt'), 'hello from the workspace\n');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: workspace, env: { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return {
    home,
    workspace,
    child,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function connect(home: string) {
  const info = await readServeInfo(home);
  return connectNode({ url: info.url, token: info.token, clientInfo, reconnect: false });
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number.parseInt(line.replace(/\D+/g, ''), 10) / 1024;
}

function scriptConfig(dir: string, name: string, replies: unknown[]): string {
  const script = join(dir, `${name}.json`);
  writeFileSync(script, JSON.stringify({ replies }));
  return `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`;
}

/**
 * A session of about `mb` MB in `home`'s log, written directly (as a long history would have been): a user
 * message and a 1 KB answer, over and over.
 */
function bigSession(home: string, workspace: string, mb: number): { session: string; events: number } {
  const log = EventLog.open({ path: join(home, 'nodwyn.db'), keyPath: join(home, 'log.key') });
  const session = 's-bench-history';
  try {
    log.append(session, { type: 'session.created', actor: 'kernel', payload: { workspace } });
    const answer = 'lorem ipsum dolor sit amet '.repeat(38);
    const batch = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? { type: 'message.user', actor: 'user', payload: { text: `question ${i}` } } : { type: 'message.assistant', actor: 'model', payload: { text: answer, tool_calls: [], stop_reason: 'end_turn', provider: 'bench' } }));
    while (statSync(join(home, 'nodwyn.db')).size + statSync(join(home, 'nodwyn.db-wal'), { throwIfNoEntry: false })?.size! < mb * 1024 * 1024) log.appendBatch(session, batch);
    return { session, events: log.head(session)!.seq };
  } finally {
    log.close();
  }
}

/** Attaching to a 25 MB session: time to its first replayed event, and to the whole replay. */
async function attachBig(bin: string, dir: string): Promise<Row> {
  const home = join(dir, 'serve-attach');
  const workspace = join(dir, 'serve-attach-workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const { session, events } = bigSession(home, workspace, 25);
  const served = await daemon(bin, dir, 'attach', scriptConfig(dir, 'attach', [{ text: 'hi' }]));
  try {
    const client = await connect(served.home);
    let first = 0;
    let count = 0;
    client.onEvent((e: ClientEvent) => {
      if (e.type !== 'log') return;
      if (count++ === 0) first = performance.now();
    });
    const start = performance.now();
    await client.attach(session, 0);
    const all = performance.now() - start;
    await client.close();
    if (count !== events) throw new Error(`attach bench: ${count} of ${events} events replayed`);
    return { name: 'attach to a 25 MB session, first replayed frame', value: `${(first - start).toFixed(0)} ms`, target: '≤ 500 ms', ok: first - start <= 500, note: `${events.toLocaleString('en')} events; the whole replay took ${(all / 1000).toFixed(1)} s` };
  } finally {
    await served.stop();
  }
}

/** Prompt → answer on a warm daemon, scripted, one tool call each; and the daemon's RSS idle and after. */
async function warmPrompts(bin: string, dir: string): Promise<Row[]> {
  const served = await daemon(bin, dir, 'warm', scriptConfig(dir, 'warm', [{ toolCalls: [{ name: 'read_file', args: { path: 'hello.txt' } }] }, { text: 'done: {{lastToolResult}}' }]));
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = rssMb(served.child.pid!);
    const client = await connect(served.home);
    const { sessionId } = await client.newSession(served.workspace);
    for (let i = 0; i < 10; i++) await client.prompt(sessionId, 'warm up');
    const samples: number[] = [];
    for (let i = 0; i < 100; i++) {
      const start = performance.now();
      const { stopReason } = await client.prompt(sessionId, 'read hello.txt');
      samples.push(performance.now() - start);
      if (stopReason !== 'end_turn') throw new Error(`warm prompt bench: ${stopReason}`);
    }
    const busy = rssMb(served.child.pid!);
    await client.close();
    return [
      { name: 'prompt → answer, warm daemon, scripted, 1 tool call', value: `${percentile(samples, 50).toFixed(1)} ms p50`, target: '≤ 20 ms', ok: percentile(samples, 50) <= 20, note: `p99 ${percentile(samples, 99).toFixed(1)} ms; 100 prompts over WebSocket` },
      { name: 'idle daemon RSS', value: `${idle.toFixed(0)} MB`, target: '≤ 80 MB', ok: idle <= 80, note: `${busy.toFixed(0)} MB after 110 prompts in one workspace` },
    ];
  } finally {
    await served.stop();
  }
}

/**
 * Delta latency from the model's stream to a WebSocket client: a loopback OpenAI-compatible server in this
 * process stamps each delta as it writes it, the daemon streams it through the redactor, and this process
 * reads the stamps off the client's chunks, on one clock.
 */
async function deltaLatency(bin: string, dir: string): Promise<Row> {
  const deltas = 1000;
  const server = await startWireServer('openai-chat', [{ kind: 'stream', stampSent: true, delayMs: 2, text: Array.from({ length: deltas }, () => '@{{sent}} ') }]);
  const served = await daemon(bin, dir, 'latency', `[provider]\ndefault = "openai-compatible"\n[provider.openai-compatible]\nbase_url = "${server.url}"\nmodel = "bench"\n`);
  try {
    const client = await connect(served.home);
    const latencies: number[] = [];
    client.onEvent((e: ClientEvent) => {
      if (e.type !== 'update' || e.update.sessionUpdate !== 'agent_message_chunk' || e.update.content.type !== 'text') return;
      const now = performance.timeOrigin + performance.now();
      for (const match of e.update.content.text.matchAll(/@([\d.]+)/g)) latencies.push(now - Number(match[1]));
    });
    const { sessionId } = await client.newSession(served.workspace);
    await client.prompt(sessionId, 'stream');
    await client.close();
    if (latencies.length !== deltas) throw new Error(`latency bench: ${latencies.length} of ${deltas} deltas arrived`);
    return { name: 'delta latency, model stream → WebSocket client', value: `${percentile(latencies, 50).toFixed(2)} / ${percentile(latencies, 99).toFixed(2)} ms`, target: '≤ 2 / ≤ 10 ms', ok: percentile(latencies, 50) <= 2 && percentile(latencies, 99) <= 10, note: `p50 / p99 of ${deltas} deltas, 2 ms apart, openai-compatible loopback` };
  } finally {
    await served.stop();
    await server.close();
  }
}

/** Streamed deltas per second through the daemon's redactor to a WebSocket client: 100k one-word deltas. */
async function deltaThroughput(bin: string, dir: string): Promise<Row> {
  const words = 100_000;
  const text = Array.from({ length: words }, (_, i) => `w${i % 1000}`).join(' ');
  const served = await daemon(bin, dir, 'throughput', scriptConfig(dir, 'throughput', [{ text }]));
  try {
    const client = await connect(served.home);
    let shown = '';
    client.onEvent((e: ClientEvent) => {
      if (e.type === 'update' && e.update.sessionUpdate === 'agent_message_chunk' && e.update.content.type === 'text') shown += e.update.content.text;
    });
    const { sessionId } = await client.newSession(served.workspace);
    await client.prompt(sessionId, 'warm up');
    shown = '';
    const start = performance.now();
    await client.prompt(sessionId, 'stream');
    const seconds = (performance.now() - start) / 1000;
    await client.close();
    if (shown !== text) throw new Error(`throughput bench: ${shown.length} of ${text.length} characters arrived`);
    const rate = words / seconds;
    return { name: 'streamed deltas through the redactor to a WebSocket client', value: `${Math.round(rate).toLocaleString('en')}/s`, target: '≥ 100,000/s', ok: rate >= 100_000, note: '100k one-word deltas from the scripted provider, L1 + L2 on, one client; warm' };
  } finally {
    await served.stop();
  }
}

/** Issue 11's figures: the daemon and the protocol, measured against the real `nodwyn serve`. */
export async function benchServe(root: string, dir: string): Promise<Row[]> {
  const bin = join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs');
  return [await attachBig(bin, dir), ...(await warmPrompts(bin, dir)), await deltaLatency(bin, dir), await deltaThroughput(bin, dir)];
}
