import { Readable } from 'node:stream';
import type { CommandIO } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { EXIT_LINE_FAILED, redactCommand } from './command.js';
import { createRedactor } from './redactor.js';

const TOKEN = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';

/** Runs `nodwyn redact` on `input` (fed in small chunks, as a pipe would) and collects what it wrote. */
async function run(input: string, options: Record<string, unknown>, redactor = createRedactor()) {
  let out = '';
  let err = '';
  const chunks = input.match(/[\s\S]{1,7}/g) ?? [];
  const io: CommandIO = { stdin: Readable.from(chunks.map((c) => Buffer.from(c))), write: (t) => void (out += t), error: (t) => void (err += t), interactive: false };
  const code = await redactCommand(redactor).run({ args: [], options, io });
  return { code, out, err };
}

describe('nodwyn redact', () => {
  it('redacts stdin to stdout, keeping a key that spans chunks whole', async () => {
    const key = `-----BEGIN OPENSSH PRIVATE KEY-----\n${'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW'.repeat(3)}\n-----END OPENSSH PRIVATE KEY-----`;
    expect(await run(`token ${TOKEN}\n${key}\nbye\n`, {})).toEqual({ code: 0, out: 'token [REDACTED github-token]\n[REDACTED private-key]\nbye\n', err: '' });
  });

  it('--jsonl writes one {id,text,findings} line per input line, never a value', async () => {
    const { code, out } = await run(`{"id":"a","text":"t=${TOKEN}"}\n\n{"id":2,"text":"clean"}\n`, { jsonl: true });
    expect(code).toBe(0);
    expect(out.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { id: 'a', text: 't=[REDACTED github-token]', findings: [{ class: 'github-token', start: 2, end: 2 + TOKEN.length }] },
      { id: 2, text: 'clean', findings: [] },
    ]);
  });

});

describe('nodwyn redact --jsonl failures and streaming', () => {
  it('--jsonl answers a malformed line with an envelope, goes on, and exits 3', async () => {
    const { code, out } = await run(`not json ${TOKEN}\n{"id":"b","text":42}\n[1]\n{"id":"c","text":"ok"}\n`, { jsonl: true });
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(code).toBe(EXIT_LINE_FAILED);
    expect(lines.map((l) => [l.id, l.error?.code ?? l.text])).toEqual([
      [null, 'REDACT_INPUT_INVALID'],
      ['b', 'REDACT_INPUT_INVALID'],
      [null, 'REDACT_INPUT_INVALID'],
      ['c', 'ok'],
    ]);
    expect(lines[1].error).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.text', received_value: null });
    expect(out).not.toContain(TOKEN);
  });

  it('--jsonl turns a detector failure into an error line without the text', async () => {
    const broken = createRedactor(() => {
      throw new Error('bug');
    });
    const { code, out } = await run(`{"id":"x","text":"${TOKEN}"}\n`, { jsonl: true }, broken);
    expect(code).toBe(EXIT_LINE_FAILED);
    expect(JSON.parse(out)).toMatchObject({ id: 'x', error: { code: 'REDACT_FAILED', category: 'INTERNAL' } });
    expect(out).not.toContain(TOKEN);
  });

  it('--jsonl streams: the first answer is written before the input ends', async () => {
    let out = '';
    const stdin = new Readable({ read() {} });
    const io: CommandIO = { stdin, write: (t) => void (out += t), error: () => undefined, interactive: false };
    const done = redactCommand(createRedactor()).run({ args: [], options: { jsonl: true }, io });
    stdin.push(`{"id":1,"text":"${TOKEN}"}\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(out).toContain('"id":1');
    stdin.push(null);
    expect(await done).toBe(0);
  });
});
