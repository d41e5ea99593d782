import { RssWatchdog, type Envelope } from '@nodwyn/plugin-api';
import { type SandboxLimits, type SandboxResult } from '@nodwyn/plugin-api/sandbox';
import { spawn, type ChildProcess } from 'node:child_process';
import { LogBuffer } from './log-buffer.js';
import { RecordReader } from './record-reader.js';
import { endings, reportedFailure, type HarnessReport } from './run-endings.js';

/** One Deno process to supervise. */
export interface DenoProcessSpec {
  readonly binary: string;
  readonly argv: readonly string[];
  /** The whole environment of the process: nothing of the host's is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The message the harness reads from stdin, as its first line. */
  readonly input: string;
  /** Serves a door call the harness made (`call` record); its answer goes back as one line on stdin. */
  readonly serve: (request: string) => Promise<DoorReply>;
  /** The host's own envelope of a door failure the harness reported by `ref`, if it has one. */
  readonly doorEnvelope: (ref: unknown) => Envelope | undefined;
  readonly nonce: string;
  readonly limits: SandboxLimits;
  readonly signal: AbortSignal;
}

/** The host's answer to one door call: the value, or a failure the harness throws (`ref` names the host's envelope). */
export type DoorReply = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly code: string; readonly message: string; readonly ref: number };

/** Why the host ended a process itself. */
type Stop = { readonly kind: 'timeout' | 'cancel' | 'flood' } | { readonly kind: 'memory'; readonly rss: number };

const STDERR_KEPT = 16 * 1024;
const MIB = 1024 * 1024;

/**
 * Resident memory a run may reach: V8 needs room beyond its old space (new space, code, Deno's own
 * ~28 MiB), measured at 84 MiB peak for a 32 MiB heap and 154 MiB for 64 MiB when the heap ran out.
 */
export function residentLimitMb(memoryMb: number): number {
  return 2 * memoryMb + 64;
}

/**
 * Output the process may write before it is killed: the harness keeps logs within the cap itself, so
 * this only stops code that writes to stdout or stderr directly; JSON escaping of logs can take up to
 * six bytes for one, hence the margin.
 */
export function rawOutputLimit(outputCap: number): number {
  return 8 * outputCap + MIB;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // No such group (the process is already gone): killing the child alone is all that is left to try.
    child.kill('SIGKILL');
  }
}

function stopped(stop: Stop, limits: SandboxLimits): Envelope {
  switch (stop.kind) {
    case 'timeout':
      return endings.timeout(limits.timeoutMs);
    case 'cancel':
      return endings.cancelled();
    case 'flood':
      return endings.outputFlood(limits.outputCap);
    case 'memory':
      return endings.residentExceeded(Math.round(stop.rss / MIB), residentLimitMb(limits.memoryMb));
  }
}

function failure(envelope: Envelope, logs: string): SandboxResult {
  return { ok: false, envelope, logs, taint: [] };
}

function exitedWithout(stderr: string, code: number | null, signal: string | null, limits: SandboxLimits): Envelope {
  if (/out of memory/i.test(stderr)) return endings.heapExhausted(limits.memoryMb);
  if (stderr.includes('promise never resolved')) return endings.neverSettled();
  const said = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return endings.exited(code, signal, (said.at(-1) ?? '').replace(/\.$/, ''));
}

/** What the host learns of one process while it runs, and the result it makes of that at the end. */
class Watch {
  readonly logs: LogBuffer;
  readonly reader: RecordReader;
  stop: Stop | undefined;
  #end: string | undefined;
  #stderr = '';
  #written = 0;

  constructor(
    nonce: string,
    private readonly limits: SandboxLimits,
    readonly halt: (why: Stop) => void,
    private readonly doors: Pick<DenoProcessSpec, 'doorEnvelope'> & { readonly call: (json: string) => void },
  ) {
    this.logs = new LogBuffer(limits.outputCap);
    this.reader = new RecordReader(nonce, {
      log: (text) => this.logs.add(text),
      stray: (line) => this.logs.add(line),
      end: (json) => (this.#end ??= json),
      call: (json) => doors.call(json),
    });
  }

  stdout(chunk: Buffer): void {
    this.#count(chunk.length);
    if (this.stop === undefined) this.reader.push(chunk);
  }

  stderr(chunk: Buffer): void {
    this.#count(chunk.length);
    if (this.#stderr.length < STDERR_KEPT) this.#stderr += chunk.toString('utf8', 0, Math.min(chunk.length, STDERR_KEPT));
  }

  /** The result: the end record if one arrived (it wins over a limit that struck while the process exited), else why it ended. */
  outcome(code: number | null, signal: string | null, spawnError: Error | undefined): SandboxResult {
    this.reader.close();
    const settled = this.#settled();
    if (settled !== undefined) return settled;
    if (this.stop !== undefined) return failure(stopped(this.stop, this.limits), this.logs.text);
    if (spawnError !== undefined) return failure(endings.spawnFailed(spawnError.message), '');
    return failure(exitedWithout(this.#stderr, code, signal, this.limits), this.logs.text);
  }

  #count(bytes: number): void {
    this.#written += bytes;
    if (this.#written > rawOutputLimit(this.limits.outputCap)) this.halt({ kind: 'flood' });
  }

  #settled(): SandboxResult | undefined {
    if (this.#end === undefined) return undefined;
    let report: HarnessReport;
    try {
      report = JSON.parse(this.#end) as HarnessReport;
    } catch {
      // An end record cut short (the process died while writing it) tells nothing; the exit is judged instead.
      return undefined;
    }
    if (report.truncated === true) this.logs.markTruncated();
    if (!report.ok) {
      const hosts = report.kind === 'door' ? this.doors.doorEnvelope(report.ref) : undefined;
      return failure(hosts ?? reportedFailure(report, this.limits.outputCap), this.logs.text);
    }
    this.logs.shrinkTo(this.limits.outputCap - (typeof report.size === 'number' ? report.size : 0));
    return { ok: true, value: report.value, logs: this.logs.text, truncated: this.logs.truncated, taint: [] };
  }
}

/**
 * Runs one Deno process to its end and turns how it ended into a result: the harness's end record, or
 * the limit the host enforced (timeout, cancel, output, resident memory: each kills the process group
 * with SIGKILL), or how the process died. Never rejects.
 */
export function runDenoProcess(spec: DenoProcessSpec): Promise<SandboxResult> {
  return new Promise((resolve) => {
    const { limits } = spec;
    let child: ChildProcess;
    try {
      child = spawn(spec.binary, [...spec.argv], { cwd: spec.cwd, env: { ...spec.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    } catch (error) {
      resolve(failure(endings.spawnFailed((error as Error).message), ''));
      return;
    }
    // Door calls are answered in the order they came, one line each (the harness makes one at a time).
    let answering = Promise.resolve();
    const call = (json: string): void => {
      answering = answering.then(async () => {
        const reply = await spec.serve(json);
        if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(reply)}\n`);
      });
    };
    const watch = new Watch(spec.nonce, limits, (why) => {
      watch.stop ??= why;
      killGroup(child);
    }, { doorEnvelope: spec.doorEnvelope, call });
    const timer = setTimeout(() => watch.halt({ kind: 'timeout' }), limits.timeoutMs);
    const onAbort = () => watch.halt({ kind: 'cancel' });
    spec.signal.addEventListener('abort', onAbort, { once: true });
    if (spec.signal.aborted) onAbort();
    const watchdog = child.pid === undefined ? undefined : new RssWatchdog(child.pid, residentLimitMb(limits.memoryMb) * MIB, (rss) => watch.halt({ kind: 'memory', rss }));
    child.stdout?.on('data', (chunk: Buffer) => watch.stdout(chunk));
    child.stderr?.on('data', (chunk: Buffer) => watch.stderr(chunk));
    child.stdin?.on('error', () => {
      // The process died before reading its message (a crash at start, or a kill); its exit says why.
    });
    child.stdin?.write(`${spec.input}\n`);
    let spawnError: Error | undefined;
    child.on('error', (error) => {
      spawnError ??= error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child.stdin?.destroy();
      spec.signal.removeEventListener('abort', onAbort);
      watchdog?.stop();
      resolve(watch.outcome(code, signal, child.pid === undefined ? spawnError : undefined));
    });
  });
}
