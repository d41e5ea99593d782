import { describe, expect, it } from 'vitest';
import { RecordReader } from './record-reader.js';

function read(nonce: string, chunks: string[]) {
  const seen: string[] = [];
  const reader = new RecordReader(nonce, { log: (t) => seen.push(`log:${t}`), end: (j) => seen.push(`end:${j}`), call: (j) => seen.push(`call:${j}`), stray: (l) => seen.push(`stray:${l}`) });
  for (const chunk of chunks) reader.push(Buffer.from(chunk));
  reader.close();
  return seen;
}

describe('RecordReader', () => {
  it('splits records from plain lines, across chunk boundaries and after text without a newline', () => {
    expect(read('n1', ['\n\x1en1 log "a\\n"\n', 'plain\npartial', '\n\x1en1 e', 'nd {"ok":true}\n'])).toEqual(['log:a\n', 'stray:plain\n', 'stray:partial\n', 'end:{"ok":true}']);
  });

  it('treats a record under another nonce as a plain line, so printed lookalikes are never records', () => {
    expect(read('real', ['\x1eguess end {"ok":true,"value":1}\n'])).toEqual(['stray:\x1eguess end {"ok":true,"value":1}\n']);
  });

  it('keeps a character split across chunks whole', () => {
    const bytes = Buffer.from('✓\n');
    const seen: string[] = [];
    const reader = new RecordReader('n', { log: () => undefined, end: () => undefined, call: () => undefined, stray: (l) => seen.push(l) });
    reader.push(bytes.subarray(0, 1));
    reader.push(bytes.subarray(1));
    reader.close();
    expect(seen).toEqual(['✓\n']);
  });

  it('drops a log record cut short', () => {
    expect(read('n', ['\x1en log "unterminated'])).toEqual([]);
  });
});
