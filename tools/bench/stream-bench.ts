import { Kernel } from '@nodwyn/kernel';
import { API_VERSION, type PluginDefinition, type ProviderOptions } from '@nodwyn/plugin-api';
import { PluginHost } from '@nodwyn/plugin-host';
import { providerAnthropicPlugin } from '@nodwyn/plugin-provider-anthropic';
import { providerOpenAiPlugin } from '@nodwyn/plugin-provider-openai';
import { loopDefaultPlugin } from '@nodwyn/plugin-loop-default';
import { createParser } from 'eventsource-parser';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WireDialect, WireReply } from '../../packages/testing/src/wire/wire-reply.js';
import { percentile, type Row } from './stats.js';

const DELTAS = 100_000;

/** A wire server in a child process (see wire-serve.ts), so its work is not charged to the client measured here. */
async function startWireServer(dialect: WireDialect, replies: readonly WireReply[]): Promise<{ url: string; close(): Promise<void> }> {
  const file = join(process.env.NODWYN_HOME!, `..`, `replies-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(replies));
  const script = join(import.meta.dirname, 'wire-serve.ts');
  const child = spawn(process.execPath, ['--conditions=@nodwyn/source', '--import', 'tsx', script, dialect, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  return {
    url: first.toString().trim(),
    async close() {
      child.stdin.end();
      await once(child, 'close');
    },
  };
}

/** A model's text as deltas of one token each, a line every ten tokens (streamed text is shown a line at a time). */
const TOKENS = Array.from({ length: DELTAS }, (_, i) => `t${i % 10}${i % 10 === 9 ? '\n' : ' '}`);
const STREAMED = TOKENS.join('');

/**
 * Provider deltas per second through provider + kernel (the stream redactor for what is shown) + log for
 * one dialect, from a loopback server in its own process: the first turn (cold JIT) and the second (warm),
 * each streaming 100k deltas, which the kernel shows a line at a time.
 */
export async function deltaRate(dir: string, dialect: WireDialect, provider: string, options: ProviderOptions): Promise<{ cold: number; warm: number }> {
  const reply: WireReply = { kind: 'stream', text: TOKENS, usage: { input: 10, output: DELTAS } };
  const server = await startWireServer(dialect, [reply, reply]);
  const workspace = join(dir, `stream-${dialect}`);
  mkdirSync(workspace, { recursive: true });
  const kernel = Kernel.open({ dbPath: join(workspace, 'log.db'), keyPath: join(workspace, 'log.key'), workspace });
  const host = new PluginHost({ kernel: kernel.port(), apiVersion: API_VERSION, settings: {}, workspace, dataDir: workspace });
  const entry = (name: string, plugin: PluginDefinition) => ({ package: name, range: '^0.1.0', load: async () => plugin });
  try {
    await host.load({ name: 'bench', plugins: [entry('@nodwyn/plugin-provider-openai', providerOpenAiPlugin), entry('@nodwyn/plugin-provider-anthropic', providerAnthropicPlugin), entry('@nodwyn/plugin-loop-default', loopDefaultPlugin)] });
    await host.start();
    const model = await kernel.providers.get(provider).item.create({ ...options, base_url: server.url, model: 'bench-model' });
    const session = kernel.sessions.create({ workspace });
    const turn = async (): Promise<number> => {
      let shown = '';
      const start = performance.now();
      const result = await kernel.run({ session, prompt: 'stream', provider: model, strategy: kernel.loops.get('default').item, onEvent: (e) => void (e.type === 'delta.text' && (shown += e.text)) });
      const seconds = (performance.now() - start) / 1000;
      if (result.reason !== 'answer' || shown !== STREAMED) throw new Error(`stream bench (${dialect}): ${result.reason}, ${shown.length} of ${STREAMED.length} characters shown ${JSON.stringify(result.envelope)}`);
      return DELTAS / seconds;
    };
    const cold = await turn();
    return { cold, warm: await turn() };
  } finally {
    await host.stopAll();
    kernel.close();
    await server.close();
  }
}

/** The floor: the same stream read with fetch and eventsource-parser alone, nothing of nodwyn's. */
async function parserFloor(): Promise<number> {
  const reply: WireReply = { kind: 'stream', text: TOKENS };
  const server = await startWireServer('openai-chat', [reply, reply]);
  const read = async (): Promise<number> => {
    let events = 0;
    const parser = createParser({ onEvent: () => void events++ });
    const decoder = new TextDecoder();
    const start = performance.now();
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, messages: [] }) });
    for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }));
    return events / ((performance.now() - start) / 1000);
  };
  try {
    await read();
    return await read();
  } finally {
    await server.close();
  }
}

/** Runs the CLI as a new process without blocking this one (the wire server lives here). */
function runCli(bin: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - start, stdout }) : reject(new Error(`nodwyn ${args.join(' ')} exited ${code}: ${stderr}`)))),
  );
}

const oneToolCall = (): WireReply[] => [
  { kind: 'stream', toolCalls: [{ id: 'call_1', name: 'read_file', argsFragments: ['{"path":', '"hello.txt"}'] }] },
  { kind: 'stream', text: ['done: ', 'hello from the workspace'] },
];

/** A print-mode run with one tool call against the loopback OpenAI-compatible server, each a new process. */
async function oneToolRun(bin: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  const runs = 10;
  const server = await startWireServer('openai-chat', Array.from({ length: runs + 2 }, oneToolCall).flat());
  try {
    const args = ['run', 'read hello.txt', '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'bench'];
    await runCli(bin, args, options);
    await runCli(bin, args, options);
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) samples.push((await runCli(bin, args, options)).ms);
    return percentile(samples, 50);
  } finally {
    await server.close();
  }
}

/** Bytes of `--json` output for an answer of `words` words, streamed one word a delta. */
async function jsonBytes(bin: string, options: { cwd: string; env: NodeJS.ProcessEnv }, words: number): Promise<number> {
  const server = await startWireServer('openai-chat', [{ kind: 'stream', text: Array.from({ length: words }, (_, i) => `word${i % 100} `) }]);
  try {
    const { stdout } = await runCli(bin, ['run', 'write', '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'bench', '--json'], options);
    return Buffer.byteLength(stdout);
  } finally {
    await server.close();
  }
}

/** Issue 4's figures: streaming throughput, the one-tool run against a real wire format, and `--json` growth. */
export async function benchStreaming(root: string, dir: string): Promise<Row[]> {
  const openai = await deltaRate(dir, 'openai-chat', 'openai-compatible', {});
  const anthropic = await deltaRate(dir, 'anthropic', 'anthropic', {});
  const floor = await parserFloor();
  const bin = join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs');
  const workspace = join(dir, 'workspace-stream');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'hello.txt'), 'hello from the workspace\n');
  const options = { cwd: workspace, env: { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: join(dir, 'home-stream') } };
  const run = await oneToolRun(bin, options);
  const small = await jsonBytes(bin, options, 400);
  const large = await jsonBytes(bin, options, 4_000);
  const fmt = (n: number) => `${Math.round(n).toLocaleString('en')}/s`;
  return [
    { name: 'stream deltas, openai-compatible → kernel → log', value: fmt(openai.warm), target: '≥ 100,000/s', ok: openai.warm >= 100_000, note: `warm; ${fmt(openai.cold)} in the first turn; ${(floor / openai.warm).toFixed(2)}× the parser floor's time` },
    { name: 'stream deltas, anthropic → kernel → log', value: fmt(anthropic.warm), target: '≥ 100,000/s', ok: anthropic.warm >= 100_000, note: `warm; ${fmt(anthropic.cold)} in the first turn; ${(floor / anthropic.warm).toFixed(2)}× the parser floor's time` },
    { name: 'SSE floor: fetch + eventsource-parser only', value: fmt(floor), target: '', ok: undefined, note: 'warm; same server (own process), no provider, kernel or log' },
    { name: 'nodwyn run, openai-compatible loopback, 1 tool call', value: `${run.toFixed(0)} ms`, target: '≤ 300 ms', ok: run <= 300, note: 'median of 10, new process each' },
    { name: '--json output, 4,000-word answer', value: `${(large / 1024).toFixed(0)} KiB`, target: 'linear', ok: large / small < 12, note: `${(large / small).toFixed(1)}× the 400-word answer's ${(small / 1024).toFixed(0)} KiB` },
  ];
}
