import { describe, expect, it } from 'vitest';
import { colorEnabled, Paint } from './paint.js';

const tty = { isTTY: true, hasColors: () => true };

describe('colour', () => {
  it('is off under NO_COLOR, FORCE_COLOR=0, TERM=dumb, off a TTY, and when the terminal has none', () => {
    expect(colorEnabled({ env: {}, stream: tty })).toBe(true);
    expect(colorEnabled({ env: { NO_COLOR: '1' }, stream: tty })).toBe(false);
    expect(colorEnabled({ env: { NO_COLOR: '' }, stream: tty })).toBe(true);
    expect(colorEnabled({ env: { FORCE_COLOR: '0' }, stream: tty })).toBe(false);
    expect(colorEnabled({ env: { TERM: 'dumb' }, stream: tty })).toBe(false);
    expect(colorEnabled({ env: {}, stream: { isTTY: false } })).toBe(false);
    expect(colorEnabled({ env: {}, stream: { isTTY: true, hasColors: () => false } })).toBe(false);
  });

  it('drops colour codes but keeps bold, dim and inverse when colour is off, and always resets', () => {
    const span = { text: 'x', style: { fg: 'red' as const, bold: true } };
    expect(new Paint(true).span(span)).toBe('\u001B[1;31mx\u001B[0m');
    expect(new Paint(false).span(span)).toBe('\u001B[1mx\u001B[0m');
    expect(new Paint(false).span({ text: 'plain' })).toBe('plain');
  });
});
