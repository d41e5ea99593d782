import { EnvelopeError } from './envelope.js';
import { PluginApiCodes } from './errors.js';

/** How deep and how large a model's tool arguments may be. */
export interface ToolArgsLimits {
  /** Deepest nesting of objects and arrays. */
  readonly maxDepth: number;
  /** Largest argument text, in UTF-8 bytes. */
  readonly maxBytes: number;
}

/**
 * The limits every provider applies while it parses a reply. The log refuses payloads nested deeper than
 * 128 levels, and the text layers walk every string of a payload: arguments past these limits would fail
 * there, after the reply's text had already streamed, and leave no record of it. `maxBytes` is a ceiling
 * on memory; the turn floor applies the run's own, smaller size budget (`maxToolArgsBytes`, 1 MiB unless
 * configured) to every call.
 */
export const TOOL_ARGS_LIMITS: ToolArgsLimits = { maxDepth: 64, maxBytes: 16 * 1024 * 1024 };

/** Who refuses, for the envelope: the tool the model called and the plugin that parsed the reply. */
export interface ToolArgsSource {
  readonly name: string;
  readonly plugin?: string;
}

function refuse(source: ToolArgsSource, code: keyof typeof PluginApiCodes, what: string, limit: string): never {
  throw new EnvelopeError({
    category: 'LIMIT_EXCEEDED',
    code,
    operation: 'model.stream',
    failed_parameter: `tool_calls.${source.name}.args`,
    expected: limit,
    remediation: `The model's arguments to ${source.name} are ${what}; the reply was refused before they were parsed. Ask again with smaller, flatter arguments (split the work into several calls).`,
    ...(source.plugin ? { plugin: source.plugin } : {}),
  });
}

/**
 * Throws a LIMIT_EXCEEDED envelope when the argument text is larger than `maxBytes` or nests objects and
 * arrays deeper than `maxDepth`. It scans the text once, without parsing or recursion, so any input is
 * refused in linear time and constant stack.
 */
export function checkToolArgsText(text: string, source: ToolArgsSource, limits: ToolArgsLimits = TOOL_ARGS_LIMITS): void {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: the exact count is needed only near the limit.
  if (text.length * 3 > limits.maxBytes && Buffer.byteLength(text) > limits.maxBytes) {
    refuse(source, 'TOOL_ARGS_TOO_LARGE', `larger than ${limits.maxBytes} bytes`, `at most ${limits.maxBytes} bytes`);
  }
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limits.maxDepth) refuse(source, 'TOOL_ARGS_TOO_DEEP', `nested deeper than ${limits.maxDepth} levels`, `at most ${limits.maxDepth} levels of nesting`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/**
 * The same limits on arguments that arrived already parsed (a provider whose SDK hands over objects, a
 * script). Walks with an explicit stack, so a value of any depth is refused without overflowing.
 */
export function checkToolArgs(value: unknown, source: ToolArgsSource, limits: ToolArgsLimits = TOOL_ARGS_LIMITS): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limits.maxDepth) refuse(source, 'TOOL_ARGS_TOO_DEEP', `nested deeper than ${limits.maxDepth} levels`, `at most ${limits.maxDepth} levels of nesting`);
    for (const item of Object.values(current)) stack.push([item, depth + 1]);
  }
  checkToolArgsText(JSON.stringify(value) ?? '', source, limits);
}
