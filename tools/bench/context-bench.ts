import { connectNode, readServeInfo } from '@nodwyn/client/node';
import { EventLog, Kernel, SessionWindow, type AppendDraft } from '@nodwyn/kernel';
import type { TurnFloor } from '@nodwyn/plugin-api';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { compact } from '../../plugins/loop-default/src/compaction.js';
import { percentile, type Row } from './stats.js';

/**
 * One step of a coding session: an ask every 100 steps, a call, its 1 KB result. An exchange is about 30k
 * tokens, so the default 150k-token window holds four whole ones and fits its compaction budget.
 */
function steps(from: number, count: number): AppendDraft[] {
  const drafts: AppendDraft[] = [];
  const content = 'export const value = 42; // padding of a read file\n'.repeat(20);
  for (let i = from; i < from + count; i++) {
    if (i % 100 === 0) drafts.push({ type: 'message.user', actor: 'user', payload: { text: `question ${i}` } });
    drafts.push({ type: 'message.assistant', actor: 'model', payload: { text: '', tool_calls: [{ id: `c${i}`, name: 'read_file', args: { path: `f${i}.ts` } }], stop_reason: 'tool_use', provider: 'bench' } });
    drafts.push({ type: 'tool.completed', actor: 'tool:read_file', payload: { call_id: `c${i}`, name: 'read_file', origin: 'model', content } });
  }
  return drafts;
}

/** A session of `events` events in `log`, appended in batches; a summary over each older 1,000 events when `summaries`. */
function history(log: EventLog, session: string, workspace: string, until: (events: number) => boolean, summaries: boolean): number {
  log.append(session, { type: 'session.created', actor: 'kernel', payload: { workspace } });
  for (let step = 0; !until(log.head(session)!.seq); step += 500) {
    const before = log.head(session)!.seq;
    log.appendBatch(session, steps(step, 500));
    if (summaries) log.append(session, { type: 'summary.added', actor: 'model', payload: { from_seq: before + 2, to_seq: log.head(session)!.seq, text: `summary of steps ${step}–${step + 499}`, model: 'bench', tokens: 8 } });
  }
  return log.head(session)!.seq;
}

/** Window rebuild of a 100k-event session with summaries over all but its newest events. */
function rebuild(dir: string): Row {
  const log = EventLog.open({ path: join(dir, 'context-window.db'), key: randomBytes(32) });
  const events = history(log, 's-window', dir, (n) => n >= 100_000, true);
  log.appendBatch('s-window', steps(1_000_000, 300));
  const samples: number[] = [];
  let size = 0;
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    size = SessionWindow.open(log, 's-window', { windowTokens: 150_000, answerTokens: 8_192 }).view().entries.length;
    samples.push(performance.now() - start);
  }
  log.close();
  const p50 = percentile(samples, 50);
  return { name: 'window rebuild, 100k-event session with summaries', value: `${p50.toFixed(1)} ms`, target: '≤ 50 ms', ok: p50 <= 50, note: `median of 15; ${events.toLocaleString('en')} events, ${size} window messages, 150k-token budget` };
}

/** The compaction policy's cost before a model call when the window fits: `floor.windowView()` and a comparison. */
async function overhead(dir: string): Promise<Row> {
  const kernel = Kernel.open({ dbPath: join(dir, 'context-overhead.db'), key: randomBytes(32), workspace: dir });
  const session = kernel.sessions.create({ workspace: dir });
  kernel.log.appendBatch(session, steps(0, 200));
  const live = SessionWindow.open(kernel.log, session, { windowTokens: 150_000, answerTokens: 8_192 });
  const floor = { session, windowView: () => live.view(), summarize: () => Promise.reject(new Error('nothing to compact')) } as unknown as TurnFloor;
  const samples: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const start = performance.now();
    await compact(floor);
    samples.push(performance.now() - start);
  }
  kernel.close();
  const p50 = percentile(samples.slice(500), 50);
  return { name: 'compaction overhead per model call, nothing to compact', value: `${(p50 * 1000).toFixed(0)} µs`, target: '≤ 1 ms', ok: p50 <= 1, note: `p99 ${(percentile(samples.slice(500), 99) * 1000).toFixed(0)} µs; ${live.view().entries.length}-message window` };
}

/** An OpenAI-compatible loopback model that answers every request with "ok" and stamps when each arrived. */
async function model(): Promise<{ url: string; arrivals: number[]; server: Server }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, arrivals, server };
}

interface Home {
  readonly home: string;
  readonly workspace: string;
  readonly env: NodeJS.ProcessEnv;
}

function home(dir: string, url: string): Home {
  const h = join(dir, 'context-home');
  const workspace = join(dir, 'context-workspace');
  mkdirSync(h, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(h, 'config.toml'), `[provider]\ndefault = "openai-compatible"\n[provider.openai-compatible]\nbase_url = "${url}"\nmodel = "bench"\n`);
  return { home: h, workspace, env: { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: h } };
}

/** Spawn to the first model request of `nodwyn run` (a new session, or `--session ID`); and its peak RSS. */
async function firstRequest(bin: string, h: Home, arrivals: number[], session?: string): Promise<{ ms: number; rssMb: number }> {
  const seen = arrivals.length;
  const start = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'maxrss %M', process.execPath, bin, 'run', 'go on', ...(session ? ['--session', session] : [])], { cwd: h.workspace, env: h.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0 || arrivals.length === seen) throw new Error(`context bench: nodwyn run failed (${code}): ${stderr}`);
  return { ms: arrivals[seen]! - start, rssMb: Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? 0) / 1024 };
}

async function daemon(bin: string, h: Home): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: h.workspace, env: h.env, stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return {
    child,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * session/prompt to the first model request on a warm daemon, for a fresh session and each loaded one: the
 * first prompt after `session/load` (the window built from the log) and the median of the next (the window
 * kept), in interleaved rounds.
 */
async function warmFirstRequests(bin: string, h: Home, arrivals: number[], sessions: readonly string[]): Promise<{ first: number; kept: number }[]> {
  const served = await daemon(bin, h);
  try {
    const info = await readServeInfo(h.home);
    const client = await connectNode({ url: info.url, token: info.token, clientInfo: { name: 'bench', version: '1.0.0' }, reconnect: false });
    const fresh = (await client.newSession(h.workspace)).sessionId;
    await client.prompt(fresh, 'warm up');
    for (const id of sessions) await client.loadSession(id, h.workspace);
    const ids = [fresh, ...sessions];
    const timed = async (id: string) => {
      const seen = arrivals.length;
      const start = performance.now();
      await client.prompt(id, 'go on');
      return arrivals[seen]! - start;
    };
    const first: number[] = [];
    for (const id of ids) first.push(await timed(id));
    const kept: number[][] = ids.map(() => []);
    for (let round = 0; round < 7; round++) for (const [i, id] of ids.entries()) kept[i]!.push(await timed(id));
    await client.close();
    return ids.map((_, i) => ({ first: first[i]!, kept: percentile(kept[i]!, 50) }));
  } finally {
    await served.stop();
  }
}

/** Continuing 2.4, 25 and 100 MB sessions, in a new process and in a warm daemon, against a fresh session. */
async function continuing(root: string, dir: string): Promise<Row[]> {
  const bin = join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs');
  const { url, arrivals, server } = await model();
  const h = home(dir, url);
  try {
    const sizes = [2.4, 25, 100];
    const db = join(h.home, 'nodwyn.db');
    const log = EventLog.open({ path: db, keyPath: join(h.home, 'log.key') });
    const made = performance.now();
    const bytes = () => statSync(db).size + (statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0);
    const sessions = sizes.map((mb, i) => {
      const base = bytes();
      history(log, `s-context-${i}`, h.workspace, () => bytes() - base >= mb * 1024 * 1024, false);
      return `s-context-${i}`;
    });
    log.close();
    const generated = (performance.now() - made) / 1000;
    // Rounds of a fresh run and one of each size, so a machine that gets busier slows them alike.
    await firstRequest(bin, h, arrivals);
    const samples: { ms: number; rssMb: number }[][] = [[], ...sizes.map(() => [])];
    for (let round = 0; round < 5; round++) {
      for (const [i, session] of [undefined, ...sessions].entries()) samples[i]!.push(await firstRequest(bin, h, arrivals, session));
    }
    const [fresh, ...cont] = samples.map((s) => ({ ms: percentile(s.map((x) => x.ms), 50), rssMb: Math.max(...s.map((x) => x.rssMb)) }));
    const rows: Row[] = sizes.map((mb, i) => {
      const ratio = cont[i]!.ms / fresh!.ms;
      return { name: `continue a ${mb} MB session to the first model request (new process)`, value: `${ratio.toFixed(2)}×`, target: '≤ 1.2×', ok: ratio <= 1.2, note: `${cont[i]!.ms.toFixed(0)} ms vs ${fresh!.ms.toFixed(0)} ms fresh; medians of 5 interleaved runs` };
    });
    const peak = cont.at(-1)!.rssMb;
    rows.push({ name: 'peak RSS continuing the 100 MB session', value: `${peak.toFixed(0)} MB`, target: '≤ 120 MB', ok: peak <= 120, note: `a fresh session: ${fresh!.rssMb.toFixed(0)} MB; sessions generated in ${generated.toFixed(1)} s` });
    const [warmFresh, ...warm] = await warmFirstRequests(bin, h, arrivals, sessions);
    for (const [i, mb] of sizes.entries()) {
      const { first, kept } = warm[i]!;
      rows.push({ name: `continue a ${mb} MB session in a warm daemon, prompt → first model request`, value: `${kept.toFixed(1)} ms`, target: '≤ 20 ms', ok: kept <= 20, note: `first prompt after session/load ${first.toFixed(0)} ms; fresh session ${warmFresh!.kept.toFixed(1)} ms; median of 7 over WebSocket` });
    }
    return rows;
  } finally {
    server.close();
    rmSync(h.home, { recursive: true, force: true });
    rmSync(h.workspace, { recursive: true, force: true });
  }
}

/** Issue 13's figures: the window built from the log's end, compaction's idle cost, and continuing long sessions. */
export async function benchContext(root: string, dir: string): Promise<Row[]> {
  return [rebuild(dir), await overhead(dir), ...(await continuing(root, dir))];
}
