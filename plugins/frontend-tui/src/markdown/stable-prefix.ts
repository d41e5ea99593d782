/**
 * Where the finished part of a streaming Markdown text ends: after its last blank line outside a code
 * fence. Blocks before it no longer change as more text arrives, so they are laid out once and only the
 * tail is laid out again on each delta.
 */
export function stablePrefixLength(text: string): number {
  let inFence = false;
  let fence = '';
  let stable = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const end = offset + line.length + 1;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!inFence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      inFence = !inFence;
      fence = inFence ? marker : '';
    } else if (!inFence && line.trim() === '' && end <= text.length) {
      stable = end;
    }
    offset = end;
  }
  return stable;
}
