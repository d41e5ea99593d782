import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

function reader(maxLine: number) {
  const lines: string[] = [];
  let overflows = 0;
  const r = new LineReader(maxLine, (line) => lines.push(line), () => (overflows += 1));
  return { r, lines, overflows: () => overflows };
}

describe('LineReader', () => {
  it('joins lines split across chunks, multi-byte characters included', () => {
    const { r, lines } = reader(100);
    const bytes = Buffer.from('{"a":"naïve ✓"}\n{"b":2}\n');
    r.push(bytes.subarray(0, 9));
    r.push(bytes.subarray(9, 20));
    r.push(bytes.subarray(20));
    expect(lines).toEqual(['{"a":"naïve ✓"}', '{"b":2}']);
  });

  it('holds back a line until its newline arrives', () => {
    const { r, lines } = reader(100);
    r.push(Buffer.from('part'));
    expect(lines).toEqual([]);
    r.push(Buffer.from('ial\n'));
    expect(lines).toEqual(['partial']);
  });

  it('stops at the first line longer than the limit, and reads nothing after it', () => {
    const { r, lines, overflows } = reader(8);
    r.push(Buffer.from('short\n0123456'));
    r.push(Buffer.from('789\nlater\n'));
    expect(lines).toEqual(['short']);
    expect(overflows()).toBe(1);
  });
});
