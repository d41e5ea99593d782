import { createInterface } from 'node:readline';
import { toEnvelope, type CliCommand, type CommandIO, type Envelope, type Redactor } from '@nodwyn/plugin-api';
import { PLUGIN_NAME, redactError } from './errors.js';

/** Exit code when at least one `--jsonl` line could not be redacted (the CLI's "failure with an envelope"). */
export const EXIT_LINE_FAILED = 3;

type LineId = string | number | null;

/** One output line of `--jsonl`: the redacted text and findings, or an envelope. Never a value. */
type OutputLine = { id: LineId; text: string; findings: readonly { class: string; start: number; end: number }[] } | { id: LineId; error: Envelope };

function invalidLine(id: LineId, where: string, expected: string): OutputLine {
  const error = redactError('REDACT_INPUT_INVALID', {
    operation: 'redact',
    failed_parameter: where,
    expected,
    remediation: `Send one JSON object per line, {"id": "…", "text": "…"}, with "text" a string.`,
  });
  return { id, error: error.envelope };
}

/** Redacts one `{"id","text"}` line; a malformed line or a failed redaction becomes an error line. */
export function redactLine(redactor: Redactor, line: string): OutputLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    // The parser's message quotes the input, which may hold a secret: say only where it failed.
    return invalidLine(null, '$', 'a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return invalidLine(null, '$', 'a JSON object');
  const { id: rawId, text } = parsed as { id?: unknown; text?: unknown };
  const id: LineId = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  if (typeof text !== 'string') return invalidLine(id, '$.text', 'a string');
  try {
    const { text: redacted, findings } = redactor.redact(text);
    return { id, text: redacted, findings: findings.map(({ class: cls, start, end }) => ({ class: cls, start, end })) };
  } catch (error) {
    return { id, error: toEnvelope(error, { operation: 'redact', plugin: PLUGIN_NAME }) };
  }
}

async function runJsonl(redactor: Redactor, io: CommandIO): Promise<number> {
  let failed = false;
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const out = redactLine(redactor, line);
    failed ||= 'error' in out;
    io.write(`${JSON.stringify(out)}\n`);
  }
  return failed ? EXIT_LINE_FAILED : 0;
}

async function runPlain(redactor: Redactor, io: CommandIO): Promise<number> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of io.stdin) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
  text += decoder.decode();
  io.write(redactor.redact(text).text);
  return 0;
}

/**
 * `nodwyn redact`: stdin to stdout with every secret replaced. Plain mode reads the whole input first,
 * because a secret (a PEM key, a Kubernetes Secret) can span lines. `--jsonl` streams one
 * `{"id","text"}` object per line to one `{"id","text","findings"}` per line; a bad line gets
 * `{"id","error"}` and the rest go on. Exit 0, or 3 when any line failed.
 */
export function redactCommand(redactor: Redactor): CliCommand {
  return {
    name: 'redact',
    description: 'Redact secrets from stdin to stdout (--jsonl: one {"id","text"} object per line, streamed)',
    options: [{ flags: '--jsonl', description: 'read {"id","text"} lines, write {"id","text","findings"} lines' }],
    run: ({ options, io }) => (options.jsonl === true ? runJsonl(redactor, io) : runPlain(redactor, io)),
  };
}
