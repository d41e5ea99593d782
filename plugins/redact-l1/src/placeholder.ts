/** The placeholder a secret of class `cls` becomes: `[REDACTED github-token]`. */
export function placeholderOf(cls: string): string {
  return `[REDACTED ${cls}]`;
}
