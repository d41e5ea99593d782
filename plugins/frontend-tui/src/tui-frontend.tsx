import type { Frontend, FrontendLaunch } from '@nodwyn/plugin-api';
import { render } from 'ink';
import { EXIT } from './errors.js';
import { loadHighlighter } from './markdown/highlight-code.js';
import { describeError } from './session/describe-error.js';
import { parseTuiArgs } from './session/launch-args.js';
import { TuiController } from './session/tui-controller.js';
import { createTuiStore } from './state/tui-store.js';
import { colorEnabled, Paint } from './terminal/paint.js';
import { App } from './view/app.js';
import { PaintContext } from './view/paint-context.js';

/** Where the TUI draws and reads keys. */
export interface TuiTerminal {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own terminal. */
export function processTerminal(): TuiTerminal {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** Bracketed paste: the terminal marks pasted text, so a paste is never taken for typed Enter keys. */
const PASTE_ON = '\u001B[?2004h';
const PASTE_OFF = '\u001B[?2004l';

/**
 * Runs the TUI on `terminal` until the person quits (0), the app aborts `launch.signal` (130), the
 * terminal goes away (a broken pipe: 0, quietly) or the screen fails (1, one line on stderr). The client
 * stays open: the app owns it.
 */
export async function runTui(launch: FrontendLaunch, terminal: TuiTerminal): Promise<number> {
  if (launch.signal.aborted) return EXIT.aborted;
  const { stdin, stdout, stderr } = terminal;
  if (!stdin.isTTY || !stdout.isTTY) {
    stderr.write('nodwyn: the terminal UI needs an interactive terminal; use `nodwyn run PROMPT` in scripts and pipes.\n');
    return EXIT.noTerminal;
  }
  void loadHighlighter().catch(() => undefined);
  const args = parseTuiArgs(launch.args);
  const controller = new TuiController({ client: launch.client, workspace: launch.workspace, store: createTuiStore() });
  let brokenPipe = false;
  let settle: (code: number) => void = () => undefined;
  const ended = new Promise<number>((resolve) => (settle = resolve));
  const onAbort = (): void => settle(EXIT.aborted);
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') return settle(EXIT.failed);
    brokenPipe = true;
    settle(EXIT.ok);
  };
  launch.signal.addEventListener('abort', onAbort, { once: true });
  stdout.on('error', onStdoutError);
  stdout.write(PASTE_ON);
  const paint = new Paint(colorEnabled({ env: terminal.env, stream: stdout }));
  const instance = render(
    <PaintContext.Provider value={paint}>
      <App controller={controller} attached={args.attached} />
    </PaintContext.Provider>,
    { stdin, stdout, stderr, exitOnCtrlC: false, patchConsole: true, kittyKeyboard: { mode: 'auto' } },
  );
  instance.waitUntilExit().then(
    () => settle(EXIT.ok),
    (error: unknown) => {
      stderr.write(`nodwyn: the terminal UI stopped: ${describeError(error)}\n`);
      settle(EXIT.failed);
    },
  );
  controller.start(args);
  void controller.exited.then(settle);
  const code = await ended;
  launch.signal.removeEventListener('abort', onAbort);
  instance.unmount();
  instance.cleanup();
  const sessionId = controller.sessionId;
  await controller.dispose();
  if (!brokenPipe) {
    stdout.write(PASTE_OFF);
    if (sessionId && code === EXIT.ok) stdout.write(`Session ${sessionId}: nodwyn --resume ${sessionId} continues it.\n`);
  }
  stdout.off('error', onStdoutError);
  return code;
}

/** The terminal front end (`frontend:tui`), drawing on `terminal` (the process's own by default). */
export function tuiFrontend(terminal: () => TuiTerminal = processTerminal): Frontend {
  return {
    id: 'tui',
    description: 'The terminal UI: streamed Markdown answers, tool calls, confirmations, sessions and slash commands',
    start: (launch) => runTui(launch, terminal()),
  };
}
