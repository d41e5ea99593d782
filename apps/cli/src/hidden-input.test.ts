import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askHidden } from './hidden-input.js';

/** A terminal's stdin: a stream that records when raw mode (no echo) is switched. */
class FakeTerminal extends PassThrough {
  readonly rawMode: boolean[] = [];
  setRawMode(on: boolean): this {
    this.rawMode.push(on);
    return this;
  }
}

function ask(): { input: FakeTerminal; shown: () => string; answer: Promise<string | undefined> } {
  const input = new FakeTerminal();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString()));
  const answer = askHidden('Key: ', input as unknown as NodeJS.ReadStream, output as unknown as NodeJS.WriteStream);
  return { input, shown: () => shown, answer };
}

describe('askHidden', () => {
  it('reads a line in raw mode, so nothing typed is echoed, with backspace applied', async () => {
    const { input, shown, answer } = ask();
    input.write('sk-ab');
    input.write('\u007fc\r');
    expect(await answer).toBe('sk-ac');
    expect(shown()).toBe('Key: \n');
    expect(input.rawMode).toEqual([true, false]);
  });

  it('gives undefined for Ctrl-C, and the empty string for Enter alone', async () => {
    const cancelled = ask();
    cancelled.input.write('sk-\u0003');
    expect(await cancelled.answer).toBeUndefined();
    const empty = ask();
    empty.input.write('\r');
    expect(await empty.answer).toBe('');
  });
});
