import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../log/event-hash.js';
import type { RegisteredPrimitive } from '../primitives/primitive-table.js';

/** Longest effect kept; a longer one is replaced by the exact-arguments effect. */
const MAX_EFFECT_LENGTH = 512;

/**
 * What an "always" answer to this call would cover (`PrimitiveDefinition.effect`; the primitive's name when
 * it has none). An effect function that throws, or answers something other than a short non-empty string,
 * gives the call its exact-arguments effect (`name:sha256(canonical args)`), so a broken effect function
 * narrows an approval to this one call instead of widening it.
 */
export function effectOf(primitive: RegisteredPrimitive, args: unknown, workspace: string): string {
  if (!primitive.effect) return primitive.name;
  try {
    const effect = primitive.effect(args, { workspace });
    if (typeof effect === 'string' && effect.length > 0 && effect.length <= MAX_EFFECT_LENGTH) return effect;
  } catch {
    // Falls through to the exact-arguments effect.
  }
  return exactEffect(primitive.name, args);
}

/** The effect that covers only calls with exactly these arguments. */
export function exactEffect(name: string, args: unknown): string {
  let text: string;
  try {
    text = canonicalJson(args ?? null);
  } catch {
    // Arguments with no canonical form cannot be matched again: an effect no other call shares.
    text = randomUUID();
  }
  return `${name}:${createHash('sha256').update(text).digest('hex')}`;
}

/** Most effect lines shown with one question, and the longest line kept. */
const MAX_EFFECTS = 12;
const MAX_EFFECT_LINE = 300;

/**
 * What the call would do, for the person asked (`PrimitiveDefinition.preview`): short lines, cut and
 * counted. A preview that throws or answers something else shows nothing; the question is asked anyway.
 */
export function effectsOf(primitive: RegisteredPrimitive, args: unknown): readonly string[] | undefined {
  if (!primitive.preview) return undefined;
  try {
    const effects = primitive.preview(args)?.effects;
    if (!Array.isArray(effects)) return undefined;
    const lines = effects.filter((line): line is string => typeof line === 'string' && line.length > 0).slice(0, MAX_EFFECTS);
    return lines.length > 0 ? lines.map((line) => (line.length > MAX_EFFECT_LINE ? `${line.slice(0, MAX_EFFECT_LINE - 1)}…` : line)) : undefined;
  } catch {
    return undefined;
  }
}
