/** The TUI's keys, as `/help` and docs/tui.md list them. */
export const KEYS: readonly (readonly [string, string])[] = [
  ['Enter', 'send'],
  ['\\ then Enter', 'new line; also Alt+Enter, Ctrl+J, Shift+Enter'],
  ['Up / Down', 'earlier prompts of this workspace (from the first or last line)'],
  ['@', 'complete a workspace path (Tab or Enter accepts)'],
  ['/', 'commands (Tab completes)'],
  ['Esc', 'cancel the running turn'],
  ['Ctrl+T', 'show or hide thinking'],
  ['Ctrl+C', 'clear the input; again on an empty input to quit'],
  ['y a n r', 'answer a question: allow once, always, reject, always reject'],
];
