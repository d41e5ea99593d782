import { describe, expect, it } from 'vitest';
import { EnvelopeError } from './envelope.js';
import { checkToolArgs, checkToolArgsText } from './tool-args.js';

const source = { name: 'read_file', plugin: 'test' };

function refusal(run: () => void) {
  try {
    run();
  } catch (error) {
    if (error instanceof EnvelopeError) return error.envelope;
    throw error;
  }
  throw new Error('expected a refusal');
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { x: value };
  return value;
}

describe('tool argument limits', () => {
  it('refuses argument text nested deeper than 64 levels, and accepts 64', () => {
    expect(() => checkToolArgsText(JSON.stringify(nested(64)), source)).not.toThrow();
    expect(refusal(() => checkToolArgsText(JSON.stringify(nested(65)), source))).toMatchObject({
      category: 'LIMIT_EXCEEDED',
      code: 'TOOL_ARGS_TOO_DEEP',
      plugin: 'test',
      failed_parameter: 'tool_calls.read_file.args',
    });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(() => checkToolArgsText(JSON.stringify({ text: `\\"${'['.repeat(1000)}` }), source)).not.toThrow();
  });

  it('refuses a parsed value of any depth without overflowing the stack', () => {
    expect(refusal(() => checkToolArgs(nested(1_000_000), source)).code).toBe('TOOL_ARGS_TOO_DEEP');
  });

  it('refuses arguments larger than the byte limit', () => {
    expect(refusal(() => checkToolArgsText(JSON.stringify({ text: 'é'.repeat(600) }), source, { maxDepth: 64, maxBytes: 1000 })).code).toBe('TOOL_ARGS_TOO_LARGE');
    expect(refusal(() => checkToolArgs({ text: 'a'.repeat(2000) }, source, { maxDepth: 64, maxBytes: 1000 })).code).toBe('TOOL_ARGS_TOO_LARGE');
  });
});
