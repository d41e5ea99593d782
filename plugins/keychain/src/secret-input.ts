import type { CommandIO } from '@nodwyn/plugin-api';
import { StringDecoder } from 'node:string_decoder';
import { keychainError, keychainFail } from './errors.js';
import { LIMITS } from './limits.js';

/** A stdin that may be a terminal (`setRawMode` exists only on a TTY). */
type MaybeTty = NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown };

// A value plus one trailing CRLF: anything longer is refused without reading the rest.
const PIPED_MAX = LIMITS.valueBytes + 2;

/**
 * Reads a secret value from stdin. On a terminal it is typed with echo off (raw mode) after a prompt on
 * stderr; otherwise the whole piped input is read, less one trailing newline. Never echoed, never logged.
 */
export async function readSecretValue(io: CommandIO, name: string): Promise<string> {
  const stdin = io.stdin as MaybeTty;
  if (!io.interactive) return stripNewline(await readPiped(stdin));
  if (typeof stdin.setRawMode !== 'function') {
    keychainFail('SECRET_INPUT_NOT_HIDDEN', {
      category: 'PRECONDITION_FAILED',
      remediation: `This terminal cannot turn off echo, so the value would be shown; pipe it instead: printf %s "$TOKEN" | nodwyn secret add ${name} --class CLASS.`,
    });
  }
  io.error(`Value for ${name} (input hidden, Enter to finish): `);
  return readHidden(stdin as MaybeTty & { setRawMode: (raw: boolean) => unknown }, io);
}

async function readPiped(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += bytes.length;
    if (size > PIPED_MAX) throw tooLong();
    chunks.push(bytes);
  }
  try {
    // fatal: a value that is not UTF-8 would be stored changed (U+FFFD), and fail at its destination later.
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch (error) {
    return keychainFail('SECRET_VALUE_INVALID', { category: 'VALIDATION_FAILED', failed_parameter: 'value', expected: 'UTF-8 text', remediation: 'The value on stdin is not UTF-8 text; secrets are stored as text.' }, error);
  }
}

function stripNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/** Terminal keys the hidden prompt acts on. */
const KEY = { ENTER: '\r', NEWLINE: '\n', CTRL_C: '\u0003', CTRL_D: '\u0004', BACKSPACE: '\u007f', CTRL_H: '\b' } as const;

function readHidden(stdin: MaybeTty & { setRawMode: (raw: boolean) => unknown }, io: CommandIO): Promise<string> {
  const decoder = new StringDecoder('utf8');
  stdin.setRawMode(true);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: unknown): void => {
      stdin.off('data', onData).off('end', onEnd).off('error', finish);
      stdin.setRawMode(false);
      stdin.pause();
      io.error('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onEnd = (): void => finish();
    const onData = (chunk: Buffer | string): void => {
      for (const ch of typeof chunk === 'string' ? chunk : decoder.write(chunk)) {
        if (ch === KEY.ENTER || ch === KEY.NEWLINE || ch === KEY.CTRL_D) return finish();
        if (ch === KEY.CTRL_C) return finish(cancelled());
        value = ch === KEY.BACKSPACE || ch === KEY.CTRL_H ? [...value].slice(0, -1).join('') : value + ch;
        if (Buffer.byteLength(value, 'utf8') > LIMITS.valueBytes) return finish(tooLong());
      }
    };
    stdin.on('data', onData).on('end', onEnd).on('error', finish);
    stdin.resume();
  });
}

function cancelled(): Error {
  return keychainError('SECRET_INPUT_CANCELLED', { category: 'CANCELLED', remediation: 'Cancelled at the prompt; nothing was stored.' });
}

function tooLong(): Error {
  return keychainError('SECRET_VALUE_INVALID', {
    category: 'VALIDATION_FAILED',
    failed_parameter: 'value',
    expected: `at most ${LIMITS.valueBytes} bytes`,
    remediation: `The value is over ${LIMITS.valueBytes} bytes; the keychain holds credentials, not files.`,
  });
}
