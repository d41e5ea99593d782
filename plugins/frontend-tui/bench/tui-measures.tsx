/** @jsxRuntime automatic */
// What the terminal front end costs in its own process: the render work of one streamed delta with 1k and
// 100k finished items in the scrollback, keystroke echo while deltas stream, and the first full frame of a
// continued session's tail. `npm run bench -- tui` prints them next to the whole-process figures (React in
// production mode, as the bundled CLI runs it).
import { frontendLaunch, recordingFrontendClient } from '@nodwyn/testing';
import { render } from 'ink';
import { TAIL_EVENTS, TuiController } from '../src/session/tui-controller.js';
import type { FinishedItem } from '../src/state/finished-item.js';
import { createTuiStore } from '../src/state/tui-store.js';
import { initialState } from '../src/state/tui-state.js';
import { Paint } from '../src/terminal/paint.js';
import { App } from '../src/view/app.js';
import { PaintContext } from '../src/view/paint-context.js';
import { chunk, log } from '../test/session-events.js';
import { fakeTerminal, FakeStdin, FakeStdout } from '../test/fake-terminal.js';
import { runTui } from '../src/tui-frontend.js';

const SESSION = 'bench';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/** A terminal that notes when each frame was written. */
class TimedStdout extends FakeStdout {
  lastWrite = 0;
  override write = (frame: string): boolean => {
    this.lastWrite = performance.now();
    // ink writes a frame as several pieces (erase, then the lines): the last few are kept.
    if (this.frames.length >= 16) this.frames.shift();
    this.frames.push(frame);
    return true;
  };
}

/** The keyboard of the terminal `mount` draws on. */
let keyboard = new FakeStdin();

function mount(items: number, maxFps?: number) {
  keyboard = new FakeStdin();
  const finished: FinishedItem[] = Array.from({ length: items }, (_, i) =>
    i % 3 === 0
      ? { kind: 'user', id: i + 1, text: `Prompt number ${i}` }
      : i % 3 === 1
        ? { kind: 'assistant', id: i + 1, text: `An answer with **bold**, \`code\` and a list:\n\n- one\n- two ${i}`, thinking: [] }
        : { kind: 'tool', id: i + 1, title: `read_file src/file-${i}.ts`, end: 'completed', outcome: { text: 'line\n'.repeat(10) } },
  );
  const store = createTuiStore({ ...initialState(), session: { id: SESSION }, finished, nextId: items + 1 });
  const client = recordingFrontendClient();
  const controller = new TuiController({ client, workspace: '/bench', store, frameMs: 0 });
  const stdout = new TimedStdout(100, 40);
  const instance = render(
    <PaintContext.Provider value={new Paint(true)}>
      <App controller={controller} attached={false} />
    </PaintContext.Provider>,
    { stdout: stdout as unknown as NodeJS.WriteStream, stdin: keyboard as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false, ...(maxFps ? { maxFps } : {}) },
  );
  return { store, stdout, instance, controller, client };
}

/** From `runTui` to the first frame with the input (modules already loaded; no session yet). */
async function startToPrompt(): Promise<number> {
  const terminal = fakeTerminal();
  const { launch, abort } = frontendLaunch({ workspace: '/bench' });
  const started = performance.now();
  const running = runTui(launch, terminal);
  while (!terminal.stdout.frames.some((f) => f.includes('Ask anything'))) await new Promise((resolve) => setImmediate(resolve));
  const took = performance.now() - started;
  abort();
  await running;
  return took;
}

/**
 * Milliseconds from a key to the frame that shows it, while about 1,000 deltas a second stream in, with
 * ink's own frame limit (30 a second): what a person sees.
 */
async function keystrokeEcho(keys: number): Promise<number[]> {
  const { stdout, instance, controller, client } = mount(1_000);
  await controller.open(SESSION);
  let n = 0;
  const streaming = setInterval(() => client.emit(chunk(SESSION, `w${n++} `)), 1);
  await sleep(100);
  const echoes: number[] = [];
  const shows = (text: string): boolean => stdout.frames.some((f) => f.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '').includes(text));
  let typed = '';
  for (let i = 0; i < keys; i++) {
    if (typed.length === 40) {
      // Ctrl+U empties the input, so the line never wraps.
      keyboard.write('\u0015');
      while (!shows('Ask anything')) await sleep(1);
      typed = '';
    }
    typed += 'k';
    const started = performance.now();
    keyboard.write('k');
    while (!shows(`› ${typed}`)) await new Promise((resolve) => setImmediate(resolve));
    echoes.push(stdout.lastWrite - started);
    await sleep(7);
  }
  clearInterval(streaming);
  instance.unmount();
  return echoes;
}

/** Milliseconds from a delta's dispatch to its frame being written, per delta. */
async function deltaCost(items: number, deltas: number): Promise<number[]> {
  // Unthrottled, so each delta's own work is measured (ink draws at most 30 frames a second otherwise).
  const { store, stdout, instance } = mount(items, 1000);
  await sleep(200);
  const costs: number[] = [];
  for (let i = 0; i < deltas; i++) {
    const started = performance.now();
    store.dispatch({ type: 'events', events: [chunk(SESSION, `word${i} `)], at: Date.now() });
    while (stdout.lastWrite < started) await new Promise((resolve) => setImmediate(resolve));
    costs.push(stdout.lastWrite - started);
    await sleep(3);
  }
  instance.unmount();
  return costs;
}

const PARAGRAPH = 'The parser reads each field, trims it, and hands it to the checker, which reports the line and column of anything it cannot read. ';

/**
 * A continued session's tail: the `TAIL_EVENTS` logged events a continued session loads, in rounds of
 * prompt, answer with a tool call, tool result, answer; `answer` and `result` bytes per answer and result.
 */
function tail(answer: number, result: number): ReturnType<typeof log>[] {
  const events = [];
  const prose = PARAGRAPH.repeat(Math.max(1, Math.round(answer / PARAGRAPH.length)));
  const file = Array.from({ length: Math.max(1, Math.round(result / 40)) }, (_, i) => `  const value${i} = read(input, ${i});`).join('\n');
  for (let seq = 1; seq <= TAIL_EVENTS; seq += 4) {
    events.push(log(SESSION, seq, 'message.user', { text: `Step ${seq}: go on` }, 'user'));
    events.push(log(SESSION, seq + 1, 'message.assistant', { text: `## Step ${seq}\n\n${prose}\n\n\`\`\`ts\nconst step = ${seq};\n\`\`\``, tool_calls: [{ id: `c${seq}`, name: 'read_file', args: { path: `src/f${seq}.ts` } }], stop_reason: 'tool_use', provider: 'p', model: 'm', usage: { input: 1000, output: 100 } }, 'model'));
    events.push(log(SESSION, seq + 2, 'tool.completed', { call_id: `c${seq}`, name: 'read_file', content: file }));
    events.push(log(SESSION, seq + 3, 'message.assistant', { text: prose, tool_calls: [], stop_reason: 'end_turn', provider: 'p', model: 'm' }, 'model'));
  }
  return events;
}

async function firstFrame(events: ReturnType<typeof log>[]): Promise<number> {
  const client = recordingFrontendClient();
  const summary = { sessionId: SESSION, workspace: '/bench', state: 'idle' as const, lastActivity: new Date().toISOString(), events: 100_000 };
  client.listSessions = async () => [summary];
  client.attach = async () => {
    for (let i = 0; i < events.length; i += 256) {
      for (const event of events.slice(i, i + 256)) client.emit(event);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { lastSeq: TAIL_EVENTS };
  };
  const store = createTuiStore();
  const controller = new TuiController({ client, workspace: '/bench', store });
  const stdout = new TimedStdout(100, 40);
  const started = performance.now();
  const instance = render(
    <PaintContext.Provider value={new Paint(true)}>
      <App controller={controller} attached={false} />
    </PaintContext.Provider>,
    { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new FakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
  );
  controller.start({ session: SESSION, pick: false, attached: false, unknown: [] });
  // The tail is drawn in one go once it has arrived; nothing moves on screen after that frame.
  while (store.getState().finished.length < 2) await sleep(1);
  await sleep(200);
  const took = stdout.lastWrite - started;
  instance.unmount();
  return took;
}

/** The terminal front end's own figures, in one process with its modules loaded (fake terminal). */
export interface TuiFigures {
  readonly startMs: number;
  readonly firstFrameColdMs: number;
  readonly firstFrameWarmMs: number;
  readonly tailMb: number;
  readonly tailEvents: number;
  readonly delta1k: { p50: number; p99: number };
  readonly delta100k: { p50: number; p99: number };
  readonly echo: { p50: number; p99: number };
}

const summary = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99) });

/** Measures start, a continued tail's first frame (cold, then warm), one delta's cost at 1k and 100k finished items, and keystroke echo. */
export async function measureTui(): Promise<TuiFigures> {
  const startMs = await startToPrompt();
  // A 25 MB session of ~4,000 events: its tail holds megabytes, mostly tool output (folded on screen).
  const events = tail(800, 22_000);
  const tailMb = events.reduce((n, e) => n + JSON.stringify(e).length, 0) / 1e6;
  const firstFrameColdMs = await firstFrame(events);
  const firstFrameWarmMs = await firstFrame(events);
  const delta1k = summary(await deltaCost(1_000, 200));
  const delta100k = summary(await deltaCost(100_000, 200));
  const echo = summary(await keystrokeEcho(100));
  return { startMs, firstFrameColdMs, firstFrameWarmMs, tailMb, tailEvents: events.length, delta1k, delta100k, echo };
}
