import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAll } from './read-all.js';

const tooLarge = (limit: number) => new Error(`over ${limit}`);

describe('readAll', () => {
  it('reads every chunk as UTF-8, a character split between chunks included', async () => {
    const euro = Buffer.from('€');
    const stream = Readable.from([Buffer.from('price: '), euro.subarray(0, 1), euro.subarray(1), Buffer.from('5\n')]);
    expect(await readAll(stream, 100, tooLarge)).toBe('price: €5\n');
  });

  it('stops at the limit and throws, whatever still follows', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024, 'y'));
      },
    });
    await expect(readAll(endless, 4096, tooLarge)).rejects.toThrow('over 4096');
    expect(pulled).toBeLessThan(10);
  });

  it('takes exactly the limit', async () => {
    expect(await readAll(Readable.from([Buffer.alloc(8, 'a')]), 8, tooLarge)).toBe('aaaaaaaa');
  });
});
