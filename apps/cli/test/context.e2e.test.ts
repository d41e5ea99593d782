import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, CliSandbox, jsonLines } from './cli.js';

const CALLS = 500;
const WINDOW_TOKENS = 32_000;

interface Model {
  readonly url: string;
  /** Each request's body, in order. */
  readonly bodies: { bytes: number; tools: number; messages: { role: string; content?: string }[] }[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat server on loopback: a request that offers tools gets the next `read_file`
 * call (f0.txt, f1.txt, …) until `calls` were made, then an answer; a request without tools (a summary)
 * gets a short summary naming the files it saw.
 */
async function model(calls: number): Promise<Model> {
  const bodies: Model['bodies'] = [];
  let made = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as { tools?: unknown[]; messages: { role: string; content?: string }[] };
      bodies.push({ bytes: Buffer.byteLength(text), tools: body.tools?.length ?? 0, messages: body.messages });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      if (!body.tools?.length) {
        const seen = [...new Set(text.match(/f\d+\.txt/g) ?? [])];
        chunk({ role: 'assistant', content: `Summary: read ${seen.length} files (${seen.slice(0, 3).join(', ')} … ${seen.at(-1) ?? ''}); each holds lines of x.` }, 'stop');
      } else if (made < calls) {
        const i = made++;
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `f${i}.txt` }) } }] }, 'tool_calls');
      } else chunk({ role: 'assistant', content: `All ${calls} files read.` }, 'stop');
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs nodwyn without blocking the loopback server in this process, with room for a long task. */
function nodwyn(box: CliSandbox, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: box.workspace, env: box.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

interface Window {
  system: { id: string; tokens: number; text: string }[];
  tokens: number;
  window_tokens: number;
  entries: { kind: string; from_seq: number; to_seq: number; tokens: number; message: { role: string; text: string } }[];
}

let box: CliSandbox | undefined;
let api: Model | undefined;
afterEach(async () => {
  await api?.close();
  box?.remove();
});

describe('a long task under a small window', () => {
  it(`runs ${CALLS} tool calls of 20 KB results to the answer within a ${WINDOW_TOKENS}-token window, resumes with the same window, and a revoked summary gives its span back`, async () => {
    box = new CliSandbox();
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < CALLS; i++) box.write(`f${i}.txt`, line.repeat(200));
    box.write(`${box.home}/config.toml`, `[budgets]\nwindow_tokens = ${WINDOW_TOKENS}\nmax_turns = 2000\nmax_tool_calls = 1000\n`);
    api = await model(CALLS);
    const provider = ['--provider', 'openai-compatible', '--base-url', api.url, '--model', 'm'];

    const out = await nodwyn(box, ['run', 'read every file f0.txt to f499.txt', '--json', ...provider]);
    expect(out.code, out.stderr).toBe(0);
    const events = jsonLines(out.stdout);
    const session = events[0]!.session;
    expect(events.at(-1)).toMatchObject({ type: 'turn.ended', payload: { reason: 'answer', answer: `All ${CALLS} files read.` } });
    expect(events.filter((e) => e.type === 'tool.completed')).toHaveLength(CALLS);
    const summaries = events.filter((e) => e.type === 'summary.added');
    expect(summaries.length).toBeGreaterThan(10);
    expect(events.some((e) => e.type === 'summary.failed')).toBe(false);
    // Every request, summaries included, fits the window (4 bytes a token, tool schemas and JSON included).
    const largest = Math.max(...api.bodies.map((b) => b.bytes));
    expect(largest / 4).toBeLessThanOrEqual(WINDOW_TOKENS);
    // The person's ask stays in every request of the task (summary requests quote only their span).
    expect(api.bodies.filter((b) => b.tools > 0).every((b) => b.messages.some((m) => m.role === 'user' && m.content === 'read every file f0.txt to f499.txt'))).toBe(true);
    expect(box.run(['log', 'verify']).code).toBe(0);

    // A new process rebuilds the window from the log's end and the summaries: what the next call will see.
    const rebuilt = box.run(['log', 'rebuild-window', session, '--json']);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const window = JSON.parse(rebuilt.stdout) as Window;
    expect(window.entries[0]).toMatchObject({ kind: 'user', message: { text: 'read every file f0.txt to f499.txt' } });
    const latest = summaries.at(-1)!;
    expect(window.entries.filter((e) => e.kind === 'summary').map((e) => e.from_seq)).toEqual([latest.payload.from_seq]);
    expect(window.tokens).toBeLessThanOrEqual(WINDOW_TOKENS);

    // Resuming in a new process: its first request is that window and the new ask.
    const before = api.bodies.length;
    const resumed = await nodwyn(box, ['run', 'what did you find?', '--session', session, ...provider]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const first = api.bodies[before]!;
    const contents = first.messages.filter((m) => m.role !== 'system').map((m) => m.content ?? '');
    expect(contents).toEqual([...window.entries.map((e) => e.message.text), 'what did you find?']);
    // The system prompt it showed is the one sent: the session's logged parts, in order.
    expect(window.system.map((p) => p.id)).toEqual(events.filter((e) => e.type === 'context.added').map((e) => e.payload.id));
    expect(first.messages.find((m) => m.role === 'system')?.content).toBe(window.system.map((p) => p.text).join('\n\n'));

    // Revoking the latest summary brings back what it covered (raw steps, older summaries inside it), fitted
    // newest-first to the budget: with room for them (a larger budget), they are in the window again.
    box.write(`${box.home}/config.toml`, `[budgets]\nwindow_tokens = 1000000\n`);
    const roomy = () => JSON.parse(box!.run(['log', 'rebuild-window', session, '--json']).stdout) as Window;
    const from = Number(latest.payload.from_seq);
    const to = Number(latest.payload.to_seq);
    const inSpan = (w: Window) => w.entries.filter((e) => e.kind !== 'pinned' && e.from_seq >= from && e.to_seq <= to);
    expect(inSpan(roomy()).map((e) => e.kind)).toEqual(['summary']);
    const revoked = box.run(['log', 'revoke-summary', session, String(latest.seq)]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = inSpan(roomy());
    expect(after.some((e) => e.from_seq === from && e.to_seq === to)).toBe(false);
    expect(after.some((e) => e.kind === 'tool')).toBe(true);
    expect(box.run(['log', 'revoke-summary', session, '1']).code).not.toBe(0);
  }, 300_000);
});
