import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { DEFAULT_READ_LINES, numberLine, readFileTool } from './read-file.js';

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('numbers every line like cat -n', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'alpha\n\tbeta\n' });
    const result = await call(readFileTool, { path: 'a.txt' }, callContext(ws));
    expect(result.content).toBe('     1\talpha\n     2\t\tbeta');
  });

  it('says in its data what the numbered lines cannot show: a missing final newline, CRLF endings', async () => {
    const ws = tempDir();
    writeTree(ws, { 'bare.txt': 'a\nb', 'dos.txt': 'a\r\nb\r\n', 'mixed.txt': 'a\r\nb\n' });
    expect((await call(readFileTool, { path: 'bare.txt' }, callContext(ws))).data).toMatchObject({ finalNewline: false, crlf: false });
    expect((await call(readFileTool, { path: 'dos.txt' }, callContext(ws))).data).toMatchObject({ finalNewline: true, crlf: true });
    expect((await call(readFileTool, { path: 'mixed.txt' }, callContext(ws))).data).toMatchObject({ finalNewline: true, crlf: false });
  });

  it('shows an inclusive 1-based range', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': numbered(30) });
    const result = await call(readFileTool, { path: 'a.txt', start_line: 12, end_line: 14 }, callContext(ws));
    expect(result.content).toBe([numberLine(12, 'line 12'), numberLine(13, 'line 13'), numberLine(14, 'line 14')].join('\n'));
    expect(result.data).toEqual({ path: 'a.txt', startLine: 12, endLine: 14, totalLines: 30, finalNewline: true, crlf: false });
  });

  it('clamps an end_line past the end of the file', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': numbered(3) });
    const result = await call(readFileTool, { path: 'a.txt', start_line: 2, end_line: 99 }, callContext(ws));
    expect(result.content).toBe(`${numberLine(2, 'line 2')}\n${numberLine(3, 'line 3')}`);
  });

  it('reads a file without a final newline to its last line', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'one\ntwo' });
    const result = await call(readFileTool, { path: 'a.txt' }, callContext(ws));
    expect(result.content).toBe(`${numberLine(1, 'one')}\n${numberLine(2, 'two')}`);
  });

  it('stops at the default window and says where to continue', async () => {
    const ws = tempDir();
    writeTree(ws, { 'big.txt': numbered(DEFAULT_READ_LINES + 50) });
    const result = await call(readFileTool, { path: 'big.txt' }, callContext(ws, { outputCap: 10 * 1024 * 1024 }));
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(DEFAULT_READ_LINES + 1);
    expect(lines.at(-1)).toBe(`[showed lines 1–${DEFAULT_READ_LINES} of ${DEFAULT_READ_LINES + 50}; continue with start_line=${DEFAULT_READ_LINES + 1}]`);
  });

  it('cuts at the output cap with a note naming the next start_line', async () => {
    const ws = tempDir();
    writeTree(ws, { 'big.txt': numbered(1000) });
    const result = await call(readFileTool, { path: 'big.txt' }, callContext(ws, { outputCap: 4096 }));
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(4096);
    const note = result.content.split('\n').at(-1) ?? '';
    const match = /^\[output cap reached: showed lines 1–(\d+) of 1000; continue with start_line=(\d+)\]$/.exec(note);
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBe(Number(match?.[1]) + 1);
    expect(result.content).toContain(numberLine(Number(match?.[1]), `line ${match?.[1]}`));
  });

  it('cuts a very long line and says how much is missing', async () => {
    const ws = tempDir();
    writeTree(ws, { 'min.js': 'x'.repeat(2500) });
    const result = await call(readFileTool, { path: 'min.js' }, callContext(ws));
    expect(result.content.endsWith('… [500 more characters]')).toBe(true);
  });

  it('hides the carriage returns of a CRLF file', async () => {
    const ws = tempDir();
    writeTree(ws, { 'win.txt': 'a\r\nb\r\n' });
    const result = await call(readFileTool, { path: 'win.txt' }, callContext(ws));
    expect(result.content).toBe(`${numberLine(1, 'a')}\n${numberLine(2, 'b')}`);
  });

  it('marks an empty file', async () => {
    const ws = tempDir();
    writeTree(ws, { 'empty.txt': '' });
    expect((await call(readFileTool, { path: 'empty.txt' }, callContext(ws))).content).toBe('[empty file]');
  });

  it('refuses a start_line past the end', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': numbered(5) });
    const envelope = await expectEnvelope(call(readFileTool, { path: 'a.txt', start_line: 6 }, callContext(ws)), 'VALIDATION_FAILED', 'LINE_RANGE_INVALID');
    expect(envelope.failed_parameter).toBe('$.start_line');
    expect(envelope.remediation).toContain('5 lines');
  });

  it('refuses an end_line before start_line', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': numbered(5) });
    const envelope = await expectEnvelope(call(readFileTool, { path: 'a.txt', start_line: 4, end_line: 2 }, callContext(ws)), 'VALIDATION_FAILED', 'LINE_RANGE_INVALID');
    expect(envelope.failed_parameter).toBe('$.end_line');
  });

  it('refuses a binary file', async () => {
    const ws = tempDir();
    writeTree(ws, { 'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]) });
    await expectEnvelope(call(readFileTool, { path: 'img.png' }, callContext(ws)), 'VALIDATION_FAILED', 'FILE_IS_BINARY');
  });

  it('refuses a 32-byte key file without a NUL byte (log.key, the keychain key) instead of printing it as text', async () => {
    const ws = tempDir();
    const key = Buffer.from(createHash('sha256').update('a keychain key').digest().map((byte) => (byte === 0 ? 1 : byte)));
    expect(key.includes(0)).toBe(false);
    writeTree(ws, { 'log.key': key, 'controls.bin': Buffer.from([0x01, 0x02, 0x03, 0x41, 0x42, 0x43, 0x05, 0x06]) });
    await expectEnvelope(call(readFileTool, { path: 'log.key' }, callContext(ws)), 'VALIDATION_FAILED', 'FILE_IS_BINARY');
    await expectEnvelope(call(readFileTool, { path: 'controls.bin' }, callContext(ws)), 'VALIDATION_FAILED', 'FILE_IS_BINARY');
  });

  it('still reads UTF-8 text with tabs, form feeds and colour codes', async () => {
    const ws = tempDir();
    writeTree(ws, { 'log.txt': 'naïve\t\u001b[31mred\u001b[0m\f\n' });
    expect((await call(readFileTool, { path: 'log.txt' }, callContext(ws))).content).toContain('naïve');
  });

  it('refuses a file too large to load, pointing at grep', async () => {
    const ws = tempDir();
    writeTree(ws, { 'huge.log': '' });
    truncateSync(join(ws, 'huge.log'), 17 * 1024 * 1024);
    const envelope = await expectEnvelope(call(readFileTool, { path: 'huge.log' }, callContext(ws)), 'LIMIT_EXCEEDED', 'FILE_TOO_LARGE');
    expect(envelope.remediation).toContain('grep');
  });

  it('refuses a FIFO instead of blocking on it', async () => {
    const ws = tempDir();
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    await expectEnvelope(call(readFileTool, { path: 'pipe' }, callContext(ws)), 'VALIDATION_FAILED', 'FILE_NOT_REGULAR');
  });

  it('answers FILE_NOT_FOUND for a missing file', async () => {
    const ws = tempDir();
    const envelope = await expectEnvelope(call(readFileTool, { path: 'nope.txt' }, callContext(ws)), 'NOT_FOUND', 'FILE_NOT_FOUND');
    expect(envelope.received_value).toBe('nope.txt');
  });

  it('answers PATH_IS_DIRECTORY for a directory', async () => {
    const ws = tempDir();
    mkdirSync(join(ws, 'src'));
    await expectEnvelope(call(readFileTool, { path: 'src' }, callContext(ws)), 'VALIDATION_FAILED', 'PATH_IS_DIRECTORY');
  });

  it('will not read through a symlink out of the workspace', async () => {
    const ws = tempDir();
    const outside = tempDir();
    writeTree(outside, { 'secret.txt': 'top secret' });
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'innocent.txt'));
    await expectEnvelope(call(readFileTool, { path: 'innocent.txt' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('will not read an absolute path outside the workspace', async () => {
    const ws = tempDir();
    await expectEnvelope(call(readFileTool, { path: '/etc/passwd' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_OUTSIDE_WORKSPACE');
  });
});
