import { RE2JS } from 're2js';

/**
 * A RegExp whose matching is done by RE2, in time linear in the input. `source` and `flags` keep the
 * pattern as written, so error messages and a schema converted back to JSON show it unchanged.
 */
class LinearPattern extends RegExp {
  readonly #re2: RE2JS;
  readonly #source: string;

  constructor(source: string) {
    super('(?:)');
    this.#source = source;
    try {
      this.#re2 = RE2JS.compile(source);
    } catch (error) {
      throw new Error(
        `its pattern "${source}" is not supported (${error instanceof Error ? error.message : 'invalid'}): patterns use RE2 syntax, without lookaround or backreferences`,
        { cause: error },
      );
    }
  }

  override get source(): string {
    return this.#source;
  }

  override get flags(): string {
    return '';
  }

  override test(text: string): boolean {
    return this.#re2.test(text);
  }

  // zod calls `test`; `exec` (and so `match`, `search`, `replace`) is answered by RE2 too, so no caller can
  // reach the placeholder pattern given to `super`, which matches everything.
  override exec(text: string): RegExpExecArray | null {
    const matcher = this.#re2.matcher(text);
    if (!matcher.find()) return null;
    return Object.assign([matcher.group(0) ?? ''], { index: matcher.start(), input: text, groups: undefined }) as RegExpExecArray;
  }

  override toString(): string {
    return `/${this.#source}/`;
  }
}

/**
 * Runs `build` with every `new RegExp(…)` it makes matching in linear time. zod's JSON Schema reader turns
 * each `pattern` and `patternProperties` key into `new RegExp(pattern)` with no hook to choose the engine,
 * and a capability's schema is the model's: a backtracking pattern such as `(a+)+$` would hold the host
 * (admission and every preflight run it synchronously) past every timeout and Ctrl-C. The swap is only
 * seen by `build`, which is synchronous, so no other code runs while it is in place.
 */
export function withLinearPatterns<T>(build: () => T): T {
  const original = globalThis.RegExp;
  const linear = function (this: unknown, pattern: unknown, flags?: unknown): RegExp {
    if (typeof pattern === 'string' && (flags === undefined || flags === '')) return new LinearPattern(pattern);
    return new original(pattern as string, flags as string | undefined);
  } as unknown as RegExpConstructor;
  // `instanceof RegExp` inside zod must still hold for the patterns it made, and for any others.
  Object.defineProperty(linear, 'prototype', { value: original.prototype });
  globalThis.RegExp = linear;
  try {
    return build();
  } finally {
    globalThis.RegExp = original;
  }
}
