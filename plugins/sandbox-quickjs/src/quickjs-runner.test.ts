import type { ApplyResult } from '@nodwyn/plugin-api';
import type { SandboxResult, SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createQuickjsRunner } from './quickjs-runner.js';

const runner = createQuickjsRunner();
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-quickjs-')));

interface Call {
  readonly name: string;
  readonly args: unknown;
  readonly taint: readonly string[];
}

/** Runs code with a recording `apply` that answers from `answers` by primitive name. */
async function run(code: string, extra: Partial<SandboxRunRequest> = {}, answers: Record<string, (args: unknown) => ApplyResult> = {}): Promise<{ result: SandboxResult; calls: Call[] }> {
  const calls: Call[] = [];
  const apply = async (name: string, args: unknown, options: { taint?: readonly string[] } = {}): Promise<ApplyResult> => {
    calls.push({ name, args, taint: options.taint ?? [] });
    const answer = answers[name];
    if (!answer) throw new Error(`unexpected ${name}`);
    return answer(args);
  };
  const result = await runner.run({ session: 's', code, args: {}, grants: {}, workspace, signal: new AbortController().signal, apply, ...extra });
  return { result, calls };
}

function envelopeOf(result: SandboxResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.envelope;
}

describe('results', () => {
  it('returns the default export’s JSON value, awaited, with the args it was called with', async () => {
    const { result } = await run('export default async (a) => ({ n: a.n * 2, list: [1, "two", null, true], text: "naïve ✓" })', { args: { n: 21 } });
    expect(result).toMatchObject({ ok: true, value: { n: 42, list: [1, 'two', null, true], text: 'naïve ✓' }, logs: '', truncated: false, taint: [] });
  });

  it.each([
    ['undefined', 'export default () => undefined', 'result is undefined'],
    ['a function nested in an array', 'export default () => ({ items: [1, () => 2] })', 'result.items[1] is a function'],
    ['a Date', 'export default () => new Date(0)', 'result is a Date'],
    ['a Map', 'export default () => new Map()', 'result is a Map'],
    ['NaN', 'export default () => ({ x: NaN })', 'result.x is NaN'],
    ['a cycle', 'export default () => { const o = {}; o.self = o; return o; }', 'result.self is a reference back'],
    ['a bigint', 'export default () => 10n', 'result is a bigint'],
  ])('refuses %s as a result, naming where it is', async (_what, code, message) => {
    const env = envelopeOf((await run(code)).result);
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SANDBOX_RESULT_NOT_JSON' });
    expect(env.remediation).toContain(message);
  });

  it('refuses args that are not JSON before running anything', async () => {
    const env = envelopeOf((await run('export default () => 1', { args: { n: 1n } })).result);
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SANDBOX_ARGS_NOT_JSON' });
  });

  it('refuses a limit that is not a positive number', async () => {
    const env = envelopeOf((await run('export default () => 1', { limits: { timeoutMs: -1 } })).result);
    expect(env).toMatchObject({ code: 'SANDBOX_LIMITS_INVALID', failed_parameter: '$.limits.timeoutMs' });
  });
});

describe('errors the model can fix', () => {
  it('reports a thrown error with its message and line', async () => {
    const env = envelopeOf((await run('const unused = 1;\n\nexport default (a) => {\n  throw new TypeError("bad input " + a.x);\n};', { args: { x: 7 } })).result);
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SANDBOX_CODE_THREW' });
    expect(env.remediation).toContain('TypeError: bad input 7 at line 4');
  });

  it('reports a rejected promise and a thrown non-error', async () => {
    expect(envelopeOf((await run('export default async () => { await null; throw new Error("late"); }')).result).remediation).toContain('Error: late at line 1');
    expect(envelopeOf((await run('export default () => { throw "plain"; }')).result).remediation).toContain('plain');
  });

  it('reports a syntax error with its line, an import, and a missing default export', async () => {
    const syntax = envelopeOf((await run('export default () => {\n  return 1 +* 2;\n};')).result);
    expect(syntax).toMatchObject({ code: 'SANDBOX_CODE_INVALID' });
    expect(syntax.remediation).toContain('SyntaxError');
    expect(syntax.remediation).toContain('line 2');
    const imports = envelopeOf((await run('import fs from "node:fs";\nexport default () => 1;')).result);
    expect(imports).toMatchObject({ code: 'SANDBOX_CODE_INVALID' });
    expect(imports.remediation).toContain('cannot import modules');
    expect(envelopeOf((await run('export const x = 1;')).result)).toMatchObject({ code: 'SANDBOX_NO_DEFAULT_EXPORT' });
  });

  it('turns runaway recursion into an error in the code, and the next run works', async () => {
    const env = envelopeOf((await run('export default () => { const f = (n) => f(n + 1) + 1; return f(0); }')).result);
    expect(env).toMatchObject({ code: 'SANDBOX_CODE_THREW' });
    expect(env.remediation).toContain('stack overflow');
    expect((await run('export default () => 1')).result).toMatchObject({ ok: true, value: 1 });
  });

  it('ends a run that awaits what can never settle', async () => {
    const env = envelopeOf((await run('export default () => new Promise(() => {})')).result);
    expect(env).toMatchObject({ code: 'SANDBOX_NEVER_SETTLED' });
  });
});

describe('logs', () => {
  it('keeps one line per log call, values as JSON', async () => {
    const { result } = await run('export default (a, nodwyn) => { nodwyn.log("start", 1, { a: [true] }); nodwyn.log(); nodwyn.log(undefined, null); return 0; }');
    expect(result).toMatchObject({ ok: true, logs: 'start 1 {"a":[true]}\n\nundefined null', truncated: false });
  });

  it('cuts logs to what the result leaves of the output cap and says so', async () => {
    const { result } = await run('export default (a, nodwyn) => { for (let i = 0; i < 100; i++) nodwyn.log("line " + i); return "r".repeat(300); }', { limits: { outputCap: 600 } });
    if (!result.ok) throw new Error(JSON.stringify(result.envelope));
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.logs) + Buffer.byteLength(JSON.stringify(result.value))).toBeLessThanOrEqual(600);
    expect(result.logs).toMatch(/^line 0\nline 1\n/);
    expect(result.logs).toMatch(/\[logs cut by nodwyn: \d+ more bytes left out/);
  });

  it('refuses a result over the cap and keeps the logs', async () => {
    const { result } = await run('export default (a, nodwyn) => { nodwyn.log("kept"); return "x".repeat(2000); }', { limits: { outputCap: 1000 } });
    expect(envelopeOf(result)).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'SANDBOX_OUTPUT_CAP' });
    expect(result.logs).toBe('kept');
  });
});

describe('doors', () => {
  const numbered = (lines: string[]) => lines.map((text, i) => `${String(i + 1).padStart(6)}\t${text}`).join('\n');
  const readFile = () => ({ ok: true, content: numbered(['KEY=[REDACTED github-token]', 'b']), truncated: false, taint: ['github-token'] }) as ApplyResult;
  const httpRequest = () => ({ ok: true, content: 'HTTP 200\ncontent-type: text/plain\n\nhello', data: { status: 200, headers: { 'content-type': 'text/plain' } }, truncated: false, taint: [] }) as ApplyResult;

  it.each([
    ['readFile', 'nodwyn.readFile("a.txt")', { write: true, net: ['example.com'] }, 'read'],
    ['writeFile', 'nodwyn.writeFile("a.txt", "x")', { read: true, net: ['example.com'] }, 'write'],
    ['fetch', 'nodwyn.fetch("https://example.com/")', { read: true, write: true }, 'net'],
  ])('refuses %s without its grant and calls nothing', async (_door, call, grants, grant) => {
    const { result, calls } = await run(`export default (a, nodwyn) => ${call}`, { grants });
    expect(envelopeOf(result)).toMatchObject({ category: 'PERMISSION_DENIED', code: 'SANDBOX_GRANT_MISSING', failed_parameter: `$.grants.${grant}` });
    expect(calls).toEqual([]);
  });

  it('refuses a host outside the net grant, and lets the code catch the refusal', async () => {
    const code = 'export default async (a, nodwyn) => { try { await nodwyn.fetch("https://evil.example/"); return "sent"; } catch (e) { return [e.name, e.code, e.category]; } }';
    const { result, calls } = await run(code, { grants: { net: ['api.example.com'] } });
    expect(result).toMatchObject({ ok: true, value: ['NodwynError', 'SANDBOX_HOST_NOT_GRANTED', 'PERMISSION_DENIED'] });
    expect(calls).toEqual([]);
  });

  it.each(['api.github.com@127.0.0.16:4000', '2130706433', '0x7f.1'])('refuses to run with the net grant %s, which reads as one host and names another', async (entry) => {
    const code = 'export default async (a, nodwyn) => (await nodwyn.fetch("http://127.0.0.16:4000/")).body';
    const { result, calls } = await run(code, { grants: { net: [entry] } }, { http_request: httpRequest });
    expect(envelopeOf(result)).toMatchObject({ code: 'SANDBOX_GRANT_INVALID', failed_parameter: '$.grants.net[0]', received_value: entry });
    expect(calls).toEqual([]);
  });

  it('reads through read_file without line numbers, and carries the taint to later calls and the result', async () => {
    const code = 'export default async (a, nodwyn) => { const text = await nodwyn.readFile("cfg/.env"); const r = await nodwyn.fetch("https://api.example.com/x", { method: "POST", body: text }); return [text, r]; }';
    const { result, calls } = await run(code, { grants: { read: true, net: ['api.example.com'] } }, { read_file: readFile, http_request: httpRequest });
    expect(result).toMatchObject({ ok: true, value: ['KEY=[REDACTED github-token]\nb\n', { status: 200, body: 'hello', headers: { 'content-type': 'text/plain' } }], taint: ['github-token'] });
    expect(calls.map((c) => [c.name, c.taint])).toEqual([
      ['read_file', []],
      ['http_request', ['github-token']],
    ]);
    expect(calls[1]?.args).toMatchObject({ method: 'POST', url: 'https://api.example.com/x', body: 'KEY=[REDACTED github-token]\nb\n' });
  });

  it('refuses a door argument of the wrong type', async () => {
    const { result } = await run('export default (a, nodwyn) => nodwyn.readFile(42)', { grants: { read: true } });
    expect(envelopeOf(result)).toMatchObject({ code: 'SANDBOX_DOOR_ARGUMENT', failed_parameter: '$.path' });
  });
});
