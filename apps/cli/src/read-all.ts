/**
 * Reads a stream to its end as UTF-8, at most `limit` bytes: past that it stops reading and throws what
 * `tooLarge` makes, so a runaway pipe (`yes | nodwyn run`) costs at most `limit` bytes of memory.
 */
export async function readAll(stream: NodeJS.ReadableStream, limit: number, tooLarge: (limit: number) => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw tooLarge(limit);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
