import { describe, expect, it } from 'vitest';
import { cutToBytes, LogBuffer } from './log-buffer.js';

describe('LogBuffer', () => {
  it('keeps text up to the cap in bytes and says when it cut', () => {
    const logs = new LogBuffer(10);
    logs.add('12345');
    expect(logs.truncated).toBe(false);
    logs.add('6789abc');
    expect(logs.text).toBe('123456789a');
    expect(logs.truncated).toBe(true);
    logs.add('more');
    expect(logs.text).toBe('123456789a');
  });

  it('never splits a character at the cap', () => {
    const logs = new LogBuffer(4);
    logs.add('aé✓');
    expect(logs.text).toBe('aé');
    expect(Buffer.byteLength(logs.text)).toBe(3);
  });

  it('shrinks to leave room for the result', () => {
    const logs = new LogBuffer(100);
    logs.add('0123456789');
    logs.shrinkTo(4);
    expect([logs.text, logs.truncated]).toEqual(['0123', true]);
  });

  it('cutToBytes keeps short text whole', () => {
    expect(cutToBytes('abc', 3)).toBe('abc');
    expect(cutToBytes('✓✓', 5)).toBe('✓');
  });
});
