/** git's rule, and ripgrep's: a NUL byte in the first 8000 bytes means binary. */
const SNIFF_BYTES = 8000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of `content`, or undefined when it is binary: a NUL byte near the start, or bytes that are not
 * UTF-8 (a key, an image, an archive). The same rule read_file applies, so the index holds what the file
 * tools would show.
 */
export function textOf(content: Uint8Array): string | undefined {
  if (content.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return strictUtf8.decode(content);
  } catch {
    return undefined;
  }
}
