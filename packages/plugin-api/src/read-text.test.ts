import { describe, expect, it } from 'vitest';
import { codedErrors } from './coded-errors.js';
import type { ApplyResult } from './primitive.js';
import { readText } from './read-text.js';

/** A runner's own code table, as each runner passes its builder. */
const fail = codedErrors('@nodwyn/plugin-sandbox-example', { SANDBOX_DOOR_ANSWER_INVALID: 'INTERNAL', SANDBOX_READ_LINE_TOO_LONG: 'LIMIT_EXCEEDED' }).error;

const ok = (content: string): ApplyResult => ({ ok: true, content, truncated: false, taint: [] });
const row = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;

describe('readText', () => {
  it('follows read_file’s pages and takes the line numbers off', async () => {
    const pages: Record<number, string> = {
      1: [row(1, 'one'), row(2, '\ttabbed'), '[showed lines 1–2 of 3; continue with start_line=3]'].join('\n'),
      3: row(3, 'three'),
    };
    const asked: unknown[] = [];
    const text = await readText(async (_name, args) => {
      asked.push(args);
      return ok(pages[(args as { start_line: number }).start_line]!);
    }, 'a.txt', 'nodwyn.readFile', fail);
    expect(text).toBe('one\n\ttabbed\nthree\n');
    expect(asked).toEqual([{ path: 'a.txt', start_line: 1 }, { path: 'a.txt', start_line: 3 }]);
  });

  it('gives the file back as it is on disk: no final newline, or CRLF, as read_file\'s data says', async () => {
    const page = (data: unknown): ApplyResult => ({ ok: true, content: [row(1, 'a'), row(2, 'b')].join('\n'), data, truncated: false, taint: [] });
    expect(await readText(async () => page({ finalNewline: false, crlf: false }), 'a.txt', 'd', fail)).toBe('a\nb');
    expect(await readText(async () => page({ finalNewline: true, crlf: true }), 'a.txt', 'd', fail)).toBe('a\r\nb\r\n');
    expect(await readText(async () => page({ finalNewline: false, crlf: true }), 'a.txt', 'd', fail)).toBe('a\r\nb');
  });

  it('answers an empty file as an empty string', async () => {
    expect(await readText(async () => ok('[empty file]'), 'e.txt', 'd', fail)).toBe('');
  });

  it('refuses a file with a line read_file had to cut, instead of returning it altered', async () => {
    const cut = `${'x'.repeat(2000)}… [500 more characters]`;
    await expect(readText(async () => ok(row(1, cut)), 'min.js', 'd', fail)).rejects.toMatchObject({ envelope: { code: 'SANDBOX_READ_LINE_TOO_LONG' } });
  });

  it('passes read_file’s own refusal on', async () => {
    const refused: ApplyResult = { ok: false, stage: 'execute', envelope: { status: 'error', category: 'NOT_FOUND', code: 'FILE_NOT_FOUND', remediation: 'no such file', operation: null, http_status: null, failed_parameter: null, received_value: null, expected: null, retryable: 'never', retry_after_ms: null, next_action: null, request_id: null, trace: { attempts: 0 }, plugin: null } };
    await expect(readText(async () => refused, 'x', 'd', fail)).rejects.toMatchObject({ envelope: { code: 'FILE_NOT_FOUND' } });
  });
});
