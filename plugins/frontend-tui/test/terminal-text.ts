/** Waits for timers and renders to settle (the event feed gathers events for a frame). */
export function settle(ms = 40): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Strips colour and style codes, for assertions on text. */
export function plain(text: string): string {
  return text.replace(/\u001B\[[0-9;]*m/g, '');
}
