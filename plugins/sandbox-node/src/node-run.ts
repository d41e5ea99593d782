import { RssWatchdog, type Envelope } from '@nodwyn/plugin-api';
import { type SandboxLimits, type SandboxResult, type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Doors } from './doors.js';
import { HARNESS_SOURCE } from './harness-source.js';
import { LineReader } from './line-reader.js';
import { LogBuffer } from './log-buffer.js';
import { nodeArgv } from './node-argv.js';
import { endings, thrownEnvelope, type ThrownReport } from './run-endings.js';

/** What one run in a child process needs. */
export interface NodeRunSetup {
  readonly request: SandboxRunRequest;
  readonly limits: SandboxLimits;
  /** Real paths no door may reach. */
  readonly forbidden: readonly string[];
  /** Where the run's temp folder (harness and code) is made. */
  readonly tempRoot: string;
}

type Ending = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly envelope: Envelope };

/** Resident memory allowed above the heap limit: Node's own ~42 MiB, young generation and code space (measured). */
const RSS_HEADROOM_MB = 128;
/** Door calls the runner holds at once; more is a flood, not a program waiting on answers. */
const MAX_QUEUED_DOOR_CALLS = 64;
/** Room above the output cap for one channel message: a writeFile of a large text. */
const MESSAGE_SLACK_BYTES = 32 * 1024 * 1024;
/** `{"t":"ok","v":` and `}` around the result's JSON. */
const OK_FRAME_BYTES = 15;
/** Where V8's fatal out-of-memory report starts on stderr, and what it says. */
const CRASH_REPORT = '<--- Last few GCs --->';
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|invalid size error|Allocation failed/;

/**
 * One run: a fresh `node` process with the permission model, the harness and the code written to a temp
 * folder outside the workspace, limits enforced from here (timeout, cancel, output cap, heap and resident
 * memory), door calls served through the guard. The first ending wins; the process is killed with
 * SIGKILL and reaped before the run answers, and the temp folder is removed.
 */
export class NodeRun {
  readonly #setup: NodeRunSetup;
  readonly #logs: LogBuffer;
  readonly #doors: Doors;
  readonly #doorEnvelopes = new Map<number, Envelope>();
  readonly #started = Date.now();
  #ending: Ending | undefined;
  #child: ChildProcess | undefined;
  #reader: LineReader | undefined;
  #watchdog: RssWatchdog | undefined;
  #stderrTail = '';
  #crashing = false;
  #queue: Promise<void> = Promise.resolve();
  #queued = 0;
  #settle: () => void = () => undefined;
  readonly #settled = new Promise<void>((resolve) => (this.#settle = resolve));

  constructor(setup: NodeRunSetup) {
    this.#setup = setup;
    this.#logs = new LogBuffer(setup.limits.outputCap);
    this.#doors = new Doors({
      request: setup.request,
      forbidden: setup.forbidden,
      remainingMs: () => setup.limits.timeoutMs - (Date.now() - this.#started),
    });
  }

  /** Runs the code to its ending. Throws only when the temp files cannot be written. */
  async run(): Promise<SandboxResult> {
    const dir = await mkdtemp(join(this.#setup.tempRoot, 'nodwyn-node-'));
    try {
      const harnessPath = join(dir, 'harness.mjs');
      const codePath = join(dir, 'code.mjs');
      await Promise.all([writeFile(harnessPath, HARNESS_SOURCE, { mode: 0o600 }), writeFile(codePath, this.#setup.request.code, { mode: 0o600 })]);
      const argv = nodeArgv({ harnessPath, codePath, memoryMb: this.#setup.limits.memoryMb, nodeVersion: process.versions.node });
      await this.#spawn(argv, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const ending = this.#ending ?? { ok: false, envelope: endings.exited(null, null) };
    const base = { logs: this.#logs.text(), taint: this.#doors.taint };
    return ending.ok ? { ok: true, value: ending.value, truncated: false, ...base } : { ok: false, envelope: ending.envelope, ...base };
  }

  /** Starts the child and resolves once it has ended and closed its pipes. */
  async #spawn(argv: string[], dir: string): Promise<void> {
    const { request, limits } = this.#setup;
    const child = spawn(process.execPath, argv, { cwd: dir, env: {}, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], windowsHide: true });
    this.#child = child;
    const closed = new Promise<void>((resolve) => {
      child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
        this.#closed(code, signal);
        resolve();
      });
      child.once('error', (error) => {
        this.#end({ ok: false, envelope: endings.spawnFailed(error.message) });
        if (child.pid === undefined) resolve();
      });
    });
    this.#listen(child);
    const timer = setTimeout(() => this.#end({ ok: false, envelope: endings.timeout(limits.timeoutMs) }), limits.timeoutMs);
    const onAbort = () => this.#end({ ok: false, envelope: endings.cancelled() });
    request.signal.addEventListener('abort', onAbort, { once: true });
    // An abort while the temp files were written fired before anyone listened.
    if (request.signal.aborted) onAbort();
    if (child.pid !== undefined) {
      const limitMb = limits.memoryMb + RSS_HEADROOM_MB;
      this.#watchdog = new RssWatchdog(child.pid, limitMb * 1024 * 1024, (rss) => this.#end({ ok: false, envelope: endings.residentExceeded(Math.round(rss / 1048576), limitMb) }));
    }
    try {
      await Promise.race([this.#settled, closed]);
      child.kill('SIGKILL');
      await closed;
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      this.#watchdog?.stop();
    }
  }

  #listen(child: ChildProcess): void {
    const channel = child.stdio[3] as Duplex;
    // A write to a child that died fails with EPIPE; the close handler reports how the child ended.
    channel.on('error', () => undefined);
    const maxLine = this.#setup.limits.outputCap + MESSAGE_SLACK_BYTES;
    this.#reader = new LineReader(maxLine, (line) => this.#message(line), () => this.#end({ ok: false, envelope: endings.messageCapped(maxLine) }));
    channel.on('data', (chunk: Buffer) => this.#reader?.push(chunk));
    this.#send({ t: 'start', args: this.#setup.request.args });
    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    child.stdout?.on('data', (chunk: Buffer) => this.#output(out.write(chunk)));
    child.stderr?.on('data', (chunk: Buffer) => this.#stderr(err.write(chunk)));
  }

  #send(message: unknown): void {
    const channel = this.#child?.stdio[3] as Duplex | undefined;
    if (channel?.writable) channel.write(`${JSON.stringify(message)}\n`);
  }

  /**
   * Console output keeps being collected after the result arrived, until the child's pipes close: the
   * result comes over the channel (fd 3) and can overtake what the code printed to stdout just before
   * returning, which is already in the pipe and must not be lost. Past the cap it is cut (and ends a
   * run that has not ended yet).
   */
  #output(text: string): void {
    if (text === '') return;
    if (!this.#logs.append(text) && !this.#ending) this.#end({ ok: false, envelope: endings.logsCapped(this.#setup.limits.outputCap) });
  }

  /** The code's console.error goes to the logs; V8's fatal report after it only serves to recognise an out-of-memory death. */
  #stderr(text: string): void {
    this.#stderrTail = (this.#stderrTail + text).slice(-8192);
    if (this.#crashing) return;
    const report = text.indexOf(CRASH_REPORT);
    if (report >= 0) this.#crashing = true;
    this.#output(report >= 0 ? text.slice(0, report).replace(/\n+$/, '') : text);
  }

  #message(line: string): void {
    if (this.#ending) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return this.#end({ ok: false, envelope: endings.corrupt() });
    }
    if (typeof message !== 'object' || message === null) return this.#end({ ok: false, envelope: endings.corrupt() });
    if (message.t === 'log') return this.#output(typeof message.s === 'string' ? message.s : '');
    if (message.t === 'door') return this.#door(message.id, message.op, message.a);
    if (message.t === 'ok') return this.#result(message.v, Buffer.byteLength(line) - OK_FRAME_BYTES);
    if (message.t === 'bad') return this.#end({ ok: false, envelope: endings.resultInvalid(String(message.m)) });
    if (message.t === 'threw') return this.#end({ ok: false, envelope: this.#thrown(message) });
    this.#end({ ok: false, envelope: endings.corrupt() });
  }

  #result(value: unknown, bytes: number): void {
    const room = this.#setup.limits.outputCap - this.#logs.bytes;
    this.#end(bytes > room ? { ok: false, envelope: endings.resultCapped(bytes, room) } : { ok: true, value });
  }

  /** A door error the code let escape ends the run with the door's own envelope, not as a generic throw. */
  #thrown(report: ThrownReport & { door?: unknown }): Envelope {
    const door = typeof report.door === 'number' ? this.#doorEnvelopes.get(report.door) : undefined;
    return door ?? thrownEnvelope(report);
  }

  /** Door calls are served one at a time, in the order the code made them. */
  #door(id: unknown, op: unknown, args: unknown): void {
    if (typeof id !== 'number') return this.#end({ ok: false, envelope: endings.corrupt() });
    if (++this.#queued > MAX_QUEUED_DOOR_CALLS) return this.#end({ ok: false, envelope: endings.doorFlood(MAX_QUEUED_DOOR_CALLS) });
    this.#queue = this.#queue.then(async () => {
      const answer = this.#ending ? undefined : await this.#doors.serve(op, args);
      this.#queued -= 1;
      if (answer === undefined || this.#ending) return;
      if (answer.ok) return this.#send({ t: 'reply', id, ok: true, v: answer.value });
      this.#doorEnvelopes.set(id, answer.envelope);
      this.#send({ t: 'reply', id, ok: false, c: answer.envelope.code, m: `${answer.envelope.category} ${answer.envelope.code ?? ''}: ${answer.envelope.remediation}` });
    });
  }

  #closed(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#ending) return;
    const heap = OUT_OF_MEMORY.test(this.#stderrTail) && (signal !== null || code === 134);
    this.#end({ ok: false, envelope: heap ? endings.heapExhausted(this.#setup.limits.memoryMb) : endings.exited(code, signal) });
  }

  #end(ending: Ending): void {
    if (this.#ending) return;
    this.#ending = ending;
    this.#reader?.stop();
    this.#watchdog?.stop();
    this.#child?.kill('SIGKILL');
    this.#settle();
  }
}
