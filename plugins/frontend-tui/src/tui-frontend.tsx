/** @jsxRuntime automatic */
import type { Frontend, FrontendLaunch } from '@nodwyn/plugin-api';
import { render, type Instance } from 'ink';
import { EXIT } from './errors.js';
import { loadHighlighter } from './markdown/highlight-code.js';
import { parseTuiArgs, type TuiArgs } from './session/launch-args.js';
import { TuiController } from './session/tui-controller.js';
import { createTuiStore } from './state/tui-store.js';
import { colorEnabled, Paint } from './terminal/paint.js';
import { TuiExit } from './tui-exit.js';
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

function mount(controller: TuiController, args: TuiArgs, terminal: TuiTerminal, exit: TuiExit): Instance | undefined {
  const { stdin, stdout, stderr } = terminal;
  try {
    const instance = render(
      <PaintContext.Provider value={new Paint(colorEnabled({ env: terminal.env, stream: stdout }))}>
        <App controller={controller} attached={args.attached} />
      </PaintContext.Provider>,
      // Console output of in-process plugins is drawn above the TUI, when the TUI is on the process's terminal.
      { stdin, stdout, stderr, exitOnCtrlC: false, patchConsole: stdout === process.stdout, kittyKeyboard: { mode: 'auto' } },
    );
    instance.waitUntilExit().then(
      () => exit.end(EXIT.ok),
      (error: unknown) => exit.fail(error),
    );
    return instance;
  } catch (error) {
    exit.fail(error);
    return undefined;
  }
}

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
  const exit = new TuiExit(launch.signal, stdout, stderr);
  stdout.write(PASTE_ON);
  const instance = mount(controller, args, terminal, exit);
  if (instance) {
    controller.start(args);
    void controller.exited.then((code) => exit.end(code));
  }
  const code = await exit.code;
  instance?.unmount();
  instance?.cleanup();
  const sessionId = controller.sessionId;
  await controller.dispose();
  exit.dispose();
  if (exit.brokenPipe) return code;
  stdout.write(PASTE_OFF);
  if (sessionId && code === EXIT.ok) stdout.write(`Session ${sessionId}: nodwyn --resume ${sessionId} continues it.\n`);
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
