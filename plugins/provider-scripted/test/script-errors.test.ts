import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEnvelopeError, type Envelope, type ProviderOptions } from '@nodwyn/plugin-api';
import { SCRIPT_MAX_BYTES } from '../src/index.js';
import { factory, rejection } from './plugin-context.js';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodwyn-script-errors-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(text: string): Promise<string> {
  const path = join(dir, `script-${counter++}.json`);
  await writeFile(path, text);
  return path;
}

/** The envelope `create` fails with; fails the test when it succeeds or throws something else. */
async function createFailure(options: ProviderOptions): Promise<Envelope> {
  const error = await rejection((async () => (await factory('scripted')).create(options))());
  if (!isEnvelopeError(error)) throw new Error(`expected an envelope error, got ${String(error)}`);
  return error.envelope;
}

const invalidScript = async (script: unknown) => createFailure({ script: await fileWith(JSON.stringify(script)) });

describe('the script option and file', () => {
  it.each([undefined, '', '  '])('fails with SCRIPT_OPTION_MISSING when --script is %j', async (script) => {
    const envelope = await createFailure({ script });
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SCRIPT_OPTION_MISSING', failed_parameter: 'script' });
    expect(envelope.remediation).toContain('--script FILE');
  });

  it('fails with NOT_FOUND SCRIPT_NOT_FOUND naming the resolved path of a missing file', async () => {
    const path = join(dir, 'missing.json');
    expect(await createFailure({ script: path })).toMatchObject({ category: 'NOT_FOUND', code: 'SCRIPT_NOT_FOUND', received_value: path });
  });

  it('fails with SCRIPT_NOT_FOUND when the path is a directory', async () => {
    expect(await createFailure({ script: dir })).toMatchObject({ category: 'NOT_FOUND', code: 'SCRIPT_NOT_FOUND' });
  });

  it('fails with LIMIT_EXCEEDED for a file one byte over the size limit, before parsing it', async () => {
    const path = join(dir, 'huge.json');
    await writeFile(path, '');
    await truncate(path, SCRIPT_MAX_BYTES + 1);
    const envelope = await createFailure({ script: path });
    expect(envelope).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'SCRIPT_TOO_LARGE', received_value: `${SCRIPT_MAX_BYTES + 1} bytes` });
  });

  it('accepts a file of exactly the size limit', async () => {
    const body = JSON.stringify({ replies: [{ text: 'ok' }] });
    const path = await fileWith(body + ' '.repeat(SCRIPT_MAX_BYTES - body.length));
    const provider = await (await factory('scripted')).create({ script: path });
    expect(provider.id).toBe('scripted');
  });
});

describe('invalid JSON', () => {
  it('accepts a script saved with a byte-order mark', async () => {
    const provider = await (await factory('scripted')).create({ script: await fileWith(`\uFEFF${JSON.stringify({ replies: [{ text: 'ok' }] })}`) });
    expect(provider.id).toBe('scripted');
  });

  it('fails with SCRIPT_INVALID_JSON and the line and column of the error', async () => {
    const envelope = await createFailure({ script: await fileWith('{\n  "replies": [],\n}') });
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SCRIPT_INVALID_JSON', expected: 'valid JSON' });
    expect(envelope.remediation).toContain('line 3, column 1');
  });

  it('places an unexpected end of input at the end of the file', async () => {
    const envelope = await createFailure({ script: await fileWith('{"replies": [\n  {"text": "a"}') });
    expect(envelope.code).toBe('SCRIPT_INVALID_JSON');
    expect(envelope.remediation).toContain('line 2, column 16');
  });

  it('still fails with SCRIPT_INVALID_JSON and the parser message when no position is known', async () => {
    const envelope = await createFailure({ script: await fileWith('{"replies": x}') });
    expect(envelope.code).toBe('SCRIPT_INVALID_JSON');
    expect(envelope.received_value).toContain("Unexpected token 'x'");
    expect(envelope.remediation).not.toContain('line ');
  });
});

describe('schema violations name the exact JSON path', () => {
  it.each([
    ['a tool name of the wrong type', { replies: [{ text: 'a' }, { text: 'b' }, { toolCalls: [{ name: 5, args: {} }] }] }, '$.replies[2].toolCalls[0].name', 'string', '5'],
    ['args that are an array', { replies: [{ toolCalls: [{ name: 'ls', args: [1] }] }] }, '$.replies[0].toolCalls[0].args', 'object', '[1]'],
    ['text that is not a string', { replies: [{ text: ['a'] }] }, '$.replies[0].text', 'string', '["a"]'],
    ['a fractional usage count', { replies: [{ text: 'a', usage: { input: 1.5, output: 1 } }] }, '$.replies[0].usage.input', 'int', '1.5'],
    ['a missing args object', { replies: [{ toolCalls: [{ name: 'ls' }] }] }, '$.replies[0].toolCalls[0].args', 'object', 'undefined'],
    ['a script that is not an object', [], '$', 'object', '[]'],
  ])('reports %s', async (_case, script, path, expected, received) => {
    const envelope = await invalidScript(script);
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SCRIPT_INVALID', failed_parameter: path, received_value: received });
    expect(envelope.expected).toContain(expected);
    expect(envelope.remediation).toContain(`Fix ${path} in `);
  });

  it('reports an unknown key at the key itself, listing the keys allowed there', async () => {
    const envelope = await invalidScript({ replies: [{ text: 'a', txt: 'typo' }] });
    expect(envelope).toMatchObject({ code: 'SCRIPT_INVALID', failed_parameter: '$.replies[0].txt', received_value: 'typo', expected: 'only the keys text, toolCalls, usage' });
  });

  it('rejects unknown keys at the top level and in usage, and quotes keys that are not identifiers', async () => {
    expect((await invalidScript({ replies: [{ text: 'a' }], extra: 1 })).failed_parameter).toBe('$.extra');
    expect((await invalidScript({ replies: [{ text: 'a', usage: { input: 1, output: 1, total: 2 } }] })).failed_parameter).toBe('$.replies[0].usage.total');
    expect((await invalidScript({ replies: [{ text: 'a', toolCalls: [{ name: 'x', args: {}, 'my id': 1 }] }] })).failed_parameter).toBe('$.replies[0].toolCalls[0]["my id"]');
  });

  it.each([
    ['an empty reply', { replies: [{ text: 'a' }, {}] }, '$.replies[1]'],
    ['a reply with an empty toolCalls list and no text', { replies: [{ toolCalls: [] }] }, '$.replies[0]'],
  ])('rejects %s: every reply needs text or a tool call', async (_case, script, path) => {
    const envelope = await invalidScript(script);
    expect(envelope).toMatchObject({ code: 'SCRIPT_INVALID', failed_parameter: path, expected: 'a reply with "text" or at least one tool call' });
  });

  it('rejects a script with no replies', async () => {
    expect(await invalidScript({ replies: [] })).toMatchObject({ code: 'SCRIPT_INVALID', failed_parameter: '$.replies', expected: 'at least one reply' });
  });

  it('says how many more problems there are beyond the first', async () => {
    const envelope = await invalidScript({ replies: [{ text: 1 }, { text: 2 }, { text: 3 }] });
    expect(envelope.failed_parameter).toBe('$.replies[0].text');
    expect(envelope.remediation).toContain('(and 2 more problems)');
  });
});
