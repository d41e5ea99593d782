import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { editFileTool } from './edit-file.js';

const SOURCE = ['function a() {', '  return 1;', '}', '', 'function b() {', '  return 1;', '}', ''].join('\n');

describe('edit_file', () => {
  it('replaces the one occurrence and reports its line', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.ts': SOURCE });
    const result = await call(editFileTool, { path: 'a.ts', old_string: 'function b() {\n  return 1;', new_string: 'function b() {\n  return 2;' }, callContext(ws));
    expect(readFileSync(join(ws, 'a.ts'), 'utf8')).toBe(['function a() {', '  return 1;', '}', '', 'function b() {', '  return 2;', '}', ''].join('\n'));
    expect(result.content).toBe('Edited a.ts: replaced 1 occurrence at line 5.');
  });

  it('answers EDIT_NOT_FOUND, leaves the file alone, and points at the closest line', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.ts': SOURCE });
    const envelope = await expectEnvelope(
      call(editFileTool, { path: 'a.ts', old_string: 'function c() {', new_string: 'x' }, callContext(ws)),
      'NOT_FOUND',
      'EDIT_NOT_FOUND',
    );
    expect(envelope.failed_parameter).toBe('$.old_string');
    expect(envelope.remediation).toContain('read_file');
    expect(envelope.remediation).toMatch(/closest line is [15]: "function [ab]\(\) \{"/);
    expect(readFileSync(join(ws, 'a.ts'), 'utf8')).toBe(SOURCE);
  });

  it('says when the first line only differs in whitespace', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.ts': SOURCE });
    const envelope = await expectEnvelope(
      call(editFileTool, { path: 'a.ts', old_string: '    return 1;\n}\n\nfunction b', new_string: 'x' }, callContext(ws)),
      'NOT_FOUND',
      'EDIT_NOT_FOUND',
    );
    expect(envelope.remediation).toContain('Line 2 matches its first line once whitespace is ignored');
  });

  it('answers EDIT_NOT_UNIQUE with the count and the lines', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.ts': SOURCE });
    const envelope = await expectEnvelope(
      call(editFileTool, { path: 'a.ts', old_string: 'return 1;', new_string: 'return 2;' }, callContext(ws)),
      'VALIDATION_FAILED',
      'EDIT_NOT_UNIQUE',
    );
    expect(envelope.remediation).toContain('occurs 2 times in a.ts (lines 2, 6)');
    expect(envelope.remediation).toContain('replace_all');
    expect(readFileSync(join(ws, 'a.ts'), 'utf8')).toBe(SOURCE);
  });

  it('replaces every occurrence with replace_all and reports lines in the edited file', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.ts': SOURCE });
    const result = await call(editFileTool, { path: 'a.ts', old_string: '  return 1;', new_string: '  // two\n  return 2;', replace_all: true }, callContext(ws));
    const edited = readFileSync(join(ws, 'a.ts'), 'utf8');
    expect(edited).toBe(SOURCE.split('  return 1;').join('  // two\n  return 2;'));
    expect(result.content).toBe('Edited a.ts: replaced 2 occurrences at lines 2, 7.');
    expect(edited.split('\n')[6]).toBe('  // two');
  });

  it('writes replacement patterns such as $& literally', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'price: X\n' });
    await call(editFileTool, { path: 'a.txt', old_string: 'X', new_string: "$& $' $1 $$" }, callContext(ws));
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe("price: $& $' $1 $$\n");
  });

  it('matches LF text in a CRLF file and keeps the file CRLF', async () => {
    const ws = tempDir();
    writeTree(ws, { 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    await call(editFileTool, { path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' }, callContext(ws));
    expect(readFileSync(join(ws, 'win.txt'), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('refuses an edit that changes nothing', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.ts': SOURCE });
    await expectEnvelope(call(editFileTool, { path: 'a.ts', old_string: 'a()', new_string: 'a()' }, callContext(ws)), 'VALIDATION_FAILED', 'EDIT_NO_CHANGE');
  });

  it('answers FILE_NOT_FOUND for a missing file', async () => {
    const ws = tempDir();
    await expectEnvelope(call(editFileTool, { path: 'gone.ts', old_string: 'a', new_string: 'b' }, callContext(ws)), 'NOT_FOUND', 'FILE_NOT_FOUND');
  });

  it('refuses an empty old_string at preflight', () => {
    expect(editFileTool.input.safeParse({ path: 'a.ts', old_string: '', new_string: 'x' }).success).toBe(false);
  });
});
