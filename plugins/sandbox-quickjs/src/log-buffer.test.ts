import { describe, expect, it } from 'vitest';
import { byteLength, cutToBytes, LogBuffer } from './log-buffer.js';

describe('LogBuffer', () => {
  it('joins lines and keeps them whole within the budget', () => {
    const logs = new LogBuffer(100);
    logs.append('a');
    logs.append('');
    logs.append('b');
    expect(logs.finish(100)).toEqual({ text: 'a\n\nb', truncated: false });
  });

  it('stops storing past the cap and ends with a note that fits the budget', () => {
    const logs = new LogBuffer(200);
    for (let i = 0; i < 1000; i++) logs.append(`line ${i}`);
    const { text, truncated } = logs.finish(150);
    expect(truncated).toBe(true);
    expect(byteLength(text)).toBeLessThanOrEqual(150);
    expect(text).toMatch(/^line 0\n/);
    expect(text).toMatch(/logs cut by nodwyn: \d+ more bytes left out/);
  });

  it('answers nothing when even the note does not fit', () => {
    const logs = new LogBuffer(10);
    logs.append('x'.repeat(50));
    expect(logs.finish(5)).toEqual({ text: '', truncated: true });
  });

  it('never cuts inside a character', () => {
    expect(cutToBytes('✓✓✓', 4)).toBe('✓');
  });
});
