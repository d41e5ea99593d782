import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from './head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything that fits', () => {
    const buffer = new HeadTailBuffer(4, 4);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('def'));
    expect(buffer.render()).toBe('abcdef');
  });

  it('keeps the head and the tail and counts what was cut', () => {
    const buffer = new HeadTailBuffer(3, 3);
    for (const chunk of ['012', '345', '678', '9AB']) buffer.push(Buffer.from(chunk));
    expect(buffer.render()).toBe('012\n[… 6 bytes of output cut …]\n9AB');
  });

  it('keeps an exact tail across chunk boundaries', () => {
    const buffer = new HeadTailBuffer(2, 5);
    for (const chunk of ['ab', 'cdefg', 'hi', 'jk']) buffer.push(Buffer.from(chunk));
    expect(buffer.render()).toBe('ab\n[… 4 bytes of output cut …]\nghijk');
  });

  it('never splits a multi-byte character at either cut', () => {
    const buffer = new HeadTailBuffer(4, 4);
    buffer.push(Buffer.from('aéé'.repeat(10)));
    const text = buffer.render();
    expect(text).not.toContain('\uFFFD');
    expect(text.startsWith('aé')).toBe(true);
    expect(text.endsWith('é')).toBe(true);
  });
});
