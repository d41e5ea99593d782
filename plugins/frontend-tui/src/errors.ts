/** The package name, as the plugin's manifest gives it. */
export const PLUGIN_NAME = '@nodwyn/plugin-frontend-tui';

/** Exit codes of the terminal front end. */
export const EXIT = {
  /** The person quit (`/quit`, Ctrl+C twice), or the terminal went away (a broken pipe). */
  ok: 0,
  /** The screen failed in a way the TUI could not recover from; one line on stderr says why. */
  failed: 1,
  /** There is no interactive terminal to draw on. */
  noTerminal: 2,
  /** The app shut the TUI down (`launch.signal`: Ctrl+C from outside, SIGTERM). */
  aborted: 130,
} as const;
