/** Escape sequences (CSI, OSC, and two-character escapes) a tool's output or a model may carry. */
const ESCAPES = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|[@-Z\\-_])/g;
/** Control characters other than newline and tab, C1 controls included. */
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text from the agent made safe to draw: escape sequences and control characters removed (a tool's
 * output must not move the cursor, retitle the window or recolour the terminal), carriage returns of
 * CRLF folded into newlines, and tabs expanded to two spaces.
 */
export function sanitize(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ESCAPES, '').replace(CONTROLS, '').replace(/\t/g, '  ');
}
