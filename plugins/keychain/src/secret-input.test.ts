import type { CommandIO } from '@nodwyn/plugin-api';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { envelopeOf } from '../test/envelope-of.js';
import { readSecretValue } from './secret-input.js';

function io(stdin: NodeJS.ReadableStream, interactive: boolean): CommandIO & { out: string; err: string } {
  const sink = { out: '', err: '' };
  return Object.assign(sink, { stdin, interactive, write: (t: string) => void (sink.out += t), error: (t: string) => void (sink.err += t) });
}

const piped = (...chunks: (string | Buffer)[]) => io(Readable.from(chunks.map((c) => Buffer.from(c))), false);

/** A terminal stdin: a stream with raw mode, recording each switch. */
function terminal(): PassThrough & { setRawMode: ReturnType<typeof vi.fn> } {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: vi.fn() });
}

describe('readSecretValue from a pipe', () => {
  it('reads the whole input across chunks, less exactly one trailing newline', async () => {
    expect(await readSecretValue(piped('ab', 'c\n'), 'x')).toBe('abc');
    expect(await readSecretValue(piped('abc\r\n'), 'x')).toBe('abc');
    expect(await readSecretValue(piped('line1\nline2\n\n'), 'x')).toBe('line1\nline2\n');
    expect(await readSecretValue(piped('né ✓'), 'x')).toBe('né ✓');
  });

  it('refuses input over the value limit, and bytes that are not UTF-8', async () => {
    expect((await envelopeOf(readSecretValue(piped('x'.repeat(40_000), 'x'.repeat(40_000)), 'x'))).code).toBe('SECRET_VALUE_INVALID');
    expect((await envelopeOf(readSecretValue(piped(Buffer.from([0x61, 0xff])), 'x'))).code).toBe('SECRET_VALUE_INVALID');
  });
});

describe('readSecretValue from a terminal', () => {
  it('reads with echo off after a prompt on stderr, with backspace, and restores the terminal', async () => {
    const stdin = terminal();
    const term = io(stdin, true);
    const value = readSecretValue(term, 'gh');
    stdin.write('tokem');
    stdin.write('\u007fn\rignored');
    expect(await value).toBe('token');
    expect(stdin.setRawMode.mock.calls).toEqual([[true], [false]]);
    expect(term.err).toContain('Value for gh');
    expect(term.err + term.out).not.toContain('token');
  });

  it('keeps a character split across chunks whole', async () => {
    const stdin = terminal();
    const value = readSecretValue(io(stdin, true), 'gh');
    const check = Buffer.from('✓');
    stdin.write(check.subarray(0, 1));
    stdin.write(Buffer.concat([check.subarray(1), Buffer.from('\r')]));
    expect(await value).toBe('✓');
  });

  it('turns Ctrl-C into a CANCELLED envelope and restores the terminal', async () => {
    const stdin = terminal();
    const value = readSecretValue(io(stdin, true), 'gh');
    stdin.write('partial\u0003');
    expect(await envelopeOf(value, ['partial'])).toMatchObject({ category: 'CANCELLED', code: 'SECRET_INPUT_CANCELLED' });
    expect(stdin.setRawMode).toHaveBeenLastCalledWith(false);
  });

  it('finishes at the end of input instead of waiting forever', async () => {
    const stdin = terminal();
    const value = readSecretValue(io(stdin, true), 'gh');
    stdin.end('abc');
    expect(await value).toBe('abc');
  });

  it('refuses a terminal whose echo cannot be turned off', async () => {
    expect((await envelopeOf(readSecretValue(io(new PassThrough(), true), 'gh'))).code).toBe('SECRET_INPUT_NOT_HIDDEN');
  });
});
