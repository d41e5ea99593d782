import type { ApplyResult } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { admissionProof, Registry } from '../src/index.js';
import { SLUGIFY, startCapabilityKernel } from './kernel.js';

const kernels: TestKernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
});

async function start(capabilities?: Record<string, unknown>): Promise<TestKernel> {
  const k = await startCapabilityKernel({ capabilities });
  kernels.push(k);
  return k;
}

function refused(result: ApplyResult) {
  if (result.ok) throw new Error(`expected a refusal, got ${result.content}`);
  return result.envelope;
}

function registry(k: TestKernel): Registry {
  return new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader));
}

describe('the admission gate', () => {
  it('refuses code that does not parse with the compiler\'s message, line and column, and admits nothing', async () => {
    const k = await start();
    const code = 'export default (args: { text: string }) => {\n  return args.text +;\n};';
    const envelope = refused(await k.apply('register_capability', { ...SLUGIFY, code }));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'CAPABILITY_CODE_INVALID', failed_parameter: '$.code' });
    expect(envelope.remediation).toMatch(/Unexpected ";" \(slugify\.ts, line 2, column 21\)/);
    expect(envelope.received_value).toBe('2:21: return args.text +;');
    expect(registry(k).names()).toEqual([]);
  });

  it('runs the examples in the sandbox first: a wrong output rejects admission with the output in the envelope', async () => {
    const k = await start();
    const code = "export default (a: { text: string }) => a.text.toUpperCase();";
    const envelope = refused(await k.apply('register_capability', { ...SLUGIFY, code }));
    expect(envelope).toMatchObject({
      category: 'VALIDATION_FAILED',
      code: 'CAPABILITY_EXAMPLE_FAILED',
      failed_parameter: '$.examples[0]',
      received_value: '"HELLO, WORLD!"',
      expected: '"hello-world"',
    });
    expect(registry(k).names()).toEqual([]);
  });

  it('fails an example whose check predicate does not return true, and one whose code throws', async () => {
    const k = await start();
    const predicate = refused(
      await k.apply('register_capability', { ...SLUGIFY, examples: [{ args: { text: 'a b' }, check: '(out: string) => out.length > 10' }] }),
    );
    expect(predicate).toMatchObject({ code: 'CAPABILITY_EXAMPLE_FAILED', failed_parameter: '$.examples[0]', received_value: '"a-b"' });
    expect(predicate.remediation).toMatch(/its check returned false, not true/);
    const unparsable = refused(await k.apply('register_capability', { ...SLUGIFY, examples: [{ args: { text: 'a' }, check: '(out) => out ===' }] }));
    expect(unparsable).toMatchObject({ code: 'CAPABILITY_CODE_INVALID', failed_parameter: '$.examples[0].check' });
    const throwing = refused(
      await k.apply('register_capability', { ...SLUGIFY, code: "export default () => { throw new Error('boom'); }" }),
    );
    expect(throwing).toMatchObject({ code: 'CAPABILITY_EXAMPLE_FAILED', failed_parameter: '$.examples[0]' });
    expect(throwing.remediation).toMatch(/failed in the sandbox: SANDBOX_CODE_THREW.*boom/);
  });

  it('holds examples to the input schema, and the schema to being an object schema', async () => {
    const k = await start();
    const badArgs = refused(await k.apply('register_capability', { ...SLUGIFY, examples: [{ args: { text: 7 }, expect: '7' }] }));
    expect(badArgs).toMatchObject({ code: 'CAPABILITY_EXAMPLE_INVALID', failed_parameter: '$.examples[0].args.text', received_value: "7" });
    const notObject = refused(await k.apply('register_capability', { ...SLUGIFY, input_schema: { type: 'string' } }));
    expect(notObject).toMatchObject({ code: 'CAPABILITY_SCHEMA_INVALID', failed_parameter: '$.input_schema' });
    const both = refused(await k.apply('register_capability', { ...SLUGIFY, examples: [{ args: { text: 'x' }, expect: 'x', check: '() => true' }] }));
    expect(both).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.examples[0]' });
    const none = refused(await k.apply('register_capability', { ...SLUGIFY, examples: [] }));
    expect(none).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.examples' });
  });

  it('enforces the name format, the tools it may not shadow, and the size and count limits from config', async () => {
    const k = await start({ max_code_bytes: 300, max_capabilities: 1, max_examples: 2 });
    expect(refused(await k.apply('register_capability', { ...SLUGIFY, name: 'Slug-Ify' }))).toMatchObject({ code: 'CAPABILITY_NAME_INVALID', received_value: 'Slug-Ify' });
    expect(refused(await k.apply('register_capability', { ...SLUGIFY, name: 'read_file' }))).toMatchObject({ code: 'CAPABILITY_NAME_TAKEN' });
    expect(refused(await k.apply('register_capability', { ...SLUGIFY, name: 'execute_capability' }))).toMatchObject({ code: 'CAPABILITY_NAME_TAKEN' });
    const big = refused(await k.apply('register_capability', { ...SLUGIFY, code: `${SLUGIFY.code}\n// ${'x'.repeat(300)}` }));
    expect(big).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'CAPABILITY_CODE_TOO_LARGE', expected: 'at most 300 bytes' });
    const many = refused(await k.apply('register_capability', { ...SLUGIFY, examples: [...SLUGIFY.examples, SLUGIFY.examples[0]] }));
    expect(many).toMatchObject({ code: 'CAPABILITY_EXAMPLE_INVALID', expected: '1 to 2 examples' });
    expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
    // A new version of an existing capability is not a new capability: the count limit does not apply.
    expect((await k.apply('register_capability', { ...SLUGIFY, description: 'v2' })).ok).toBe(true);
    const second = refused(await k.apply('register_capability', { ...SLUGIFY, name: 'slugify_two' }));
    expect(second).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'CAPABILITY_LIMIT' });
  });

  it('refuses a malformed config section with an envelope naming the key', async () => {
    await expect(startCapabilityKernel({ capabilities: { max_capabilities: 'many' } })).rejects.toThrow(/max_capabilities/);
    await expect(startCapabilityKernel({ capabilities: { name_pattern: '(' } })).rejects.toThrow(/name_pattern/);
  });

  it('keeps the same content as one version: registering it again changes nothing but the count of versions', async () => {
    const k = await start();
    await k.apply('register_capability', SLUGIFY);
    await k.apply('register_capability', SLUGIFY);
    const versions = registry(k).history('slugify');
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0]!.hash).toBe(versions[1]!.hash);
  });
});

describe('registration policy', () => {
  const READER = {
    name: 'line_count',
    description: 'Counts the lines of a workspace file.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    code: "export default async (a: { path: string }, nodwyn: any) => (await nodwyn.readFile(a.path)).split('\\n').length;",
    grants: { read: true },
    examples: [{ args: { path: 'three.txt' }, expect: 3 }],
  };

  it('asks a person before admitting a capability that asks for grants; without one it is refused', async () => {
    const k = await start();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${k.workspace}/three.txt`, 'a\nb\nc');
    const session = k.session();
    const denied = refused(await k.apply('register_capability', READER, { session }));
    expect(denied).toMatchObject({ category: 'CONFIRMATION_REQUIRED' });
    expect(denied.remediation).toMatch(/new capability "line_count" that may read/);
    expect(registry(k).names()).toEqual([]);
    const asked: string[] = [];
    const admitted = await k.apply('register_capability', READER, { session, confirm: { confirm: async (request) => (asked.push(request.reason), true) } });
    expect(admitted.ok ? 'ok' : admitted.envelope).toBe('ok');
    expect(asked).toEqual(['register_capability adds a new capability "line_count" that may read']);
    // Same grants again: no question. More grants: a question again.
    expect(await k.apply('register_capability', { ...READER, description: 'v2' })).toMatchObject({ ok: true });
    expect(refused(await k.apply('register_capability', { ...READER, grants: { read: true, net: ['api.example.com'] } }))).toMatchObject({
      category: 'CONFIRMATION_REQUIRED',
    });
    expect(await k.apply('line_count', { path: 'three.txt' })).toMatchObject({ ok: true, content: '3' });
  });

  it('admits a pure computation without asking under the default policy, and asks for everything under "always"', async () => {
    const relaxed = await start();
    expect((await relaxed.apply('register_capability', SLUGIFY)).ok).toBe(true);
    const strict = await start({ confirm: 'always' });
    expect(refused(await strict.apply('register_capability', SLUGIFY))).toMatchObject({ category: 'CONFIRMATION_REQUIRED' });
    const never = await start({ confirm: 'never' });
    expect((await never.apply('register_capability', READER)).ok).toBe(false);
  });
  // zod's reader compiled the model's pattern with RegExp: admission and this preflight hung the host.
  it('checks a model-written schema pattern in linear time at admission and in the preflight of every call', async () => {
    const k = await start();
    const input_schema = { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } }, required: ['text'] };
    const bad = refused(await k.apply('register_capability', { ...SLUGIFY, input_schema, examples: [{ args: { text: `${'a'.repeat(5000)}!` }, expect: 'x' }] }));
    expect(bad).toMatchObject({ code: 'CAPABILITY_EXAMPLE_INVALID', failed_parameter: '$.examples[0].args.text' });
    const examples = [{ args: { text: 'aaa' }, expect: 'aaa' }];
    expect((await k.apply('register_capability', { ...SLUGIFY, input_schema, examples })).ok).toBe(true);
    const call = refused(await k.apply('execute_capability', { name: 'slugify', args: { text: `${'a'.repeat(5000)}!` } }));
    expect(call).toMatchObject({ category: 'VALIDATION_FAILED' });
  });
});
