import { render } from 'ink';
import type { ReactElement } from 'react';
import { Paint } from '../src/terminal/paint.js';
import { PaintContext } from '../src/view/paint-context.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';

/** What a test sees of a rendered tree. */
export interface RenderedTui {
  readonly stdin: FakeStdin;
  readonly stdout: FakeStdout;
  /** The scrollback printed so far plus the live region, as the last frame drew them. */
  lastFrame(): string;
  unmount(): void;
}

/**
 * Renders `tree` like ink-testing-library (debug mode: each frame is the whole scrollback plus the live
 * region), on a terminal of the size given, with or without colour.
 */
export function renderTui(tree: ReactElement, options: { columns?: number; rows?: number; color?: boolean } = {}): RenderedTui {
  const stdout = new FakeStdout(options.columns ?? 100, options.rows ?? 30);
  const stdin = new FakeStdin();
  const instance = render(<PaintContext.Provider value={new Paint(options.color ?? false)}>{tree}</PaintContext.Provider>, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: new FakeStdout() as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    stdin,
    stdout,
    lastFrame: () => stdout.lastFrame() ?? '',
    unmount: () => {
      instance.unmount();
      instance.cleanup();
    },
  };
}
