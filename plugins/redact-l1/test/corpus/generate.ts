import type { ClassSpec } from './class-spec.js';
import { BLOCK_CONTEXTS, HIDING_PLACES, LINE_CONTEXTS, type Placed } from './contexts.js';
import { NEGATIVES } from './negatives.js';
import { Rng } from './prng.js';
import { STRUCTURAL_CLASSES } from './structural-classes.js';
import { VENDOR_CLASSES } from './vendor-classes.js';

/** The seed of the corpus the README's table was measured on. */
export const CORPUS_SEED = 20250301;

/** A labelled positive: the span of the secret in `text` and the class a detector should name. */
export interface Positive {
  readonly text: string;
  readonly class: string;
  readonly start: number;
  readonly end: number;
  /** Where the secret sits: a context (`env`, `json`, …) or a hiding place (`ansi`, `basic-auth`, …). */
  readonly place: string;
}

/** A text with no secret in it, and what kind of look-alike it is. */
export interface Negative {
  readonly text: string;
  readonly kind: string;
}

export interface Corpus {
  readonly seed: number;
  readonly positives: readonly Positive[];
  readonly negatives: readonly Negative[];
}

/** Every class spec the corpus draws from. */
export const CLASS_SPECS: readonly ClassSpec[] = [...VENDOR_CLASSES, ...STRUCTURAL_CLASSES];

function label(placed: Placed, place: string): Positive {
  const start = placed.text.indexOf(placed.shown);
  if (start < 0) throw new Error(`corpus bug: ${place} lost the secret of ${placed.class}`);
  return { text: placed.text, class: placed.class, start, end: start + placed.shown.length, place };
}

const envName = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/-/g, '_').toUpperCase();

function linePositives(r: Rng, spec: ClassSpec, count: number): Positive[] {
  const out: Positive[] = [];
  const contexts = Object.entries(LINE_CONTEXTS);
  for (let i = 0; i < count; i++) {
    const { secret, carrier } = spec.make(r);
    const [place, render] = contexts[i % contexts.length]!;
    out.push(label({ text: render(r, r.pick(spec.keys), carrier, spec.standalone), shown: secret, class: spec.class }, place));
  }
  return out;
}

function blockPositives(r: Rng, spec: ClassSpec, count: number): Positive[] {
  const out: Positive[] = [];
  const contexts = Object.entries(BLOCK_CONTEXTS);
  for (let i = 0; i < count; i++) {
    const { secret, carrier } = spec.make(r);
    const [place, render] = contexts[i % contexts.length]!;
    out.push(label({ text: render(r, carrier), shown: secret, class: spec.class }, place));
  }
  return out;
}

function hiddenPositives(r: Rng, spec: ClassSpec, perPlace: number): Positive[] {
  const out: Positive[] = [];
  for (const [place, hide] of Object.entries(HIDING_PLACES)) {
    if (spec.block && place !== 'json-escaped') continue;
    for (let i = 0; i < perPlace; i++) {
      const { secret, carrier } = spec.make(r);
      const line = spec.block ? carrier : `${envName(r.pick(spec.keys))}=${carrier}`;
      const placed = hide(r, line, secret, spec.class, spec.selfEvident);
      if (placed) out.push(label(placed, place));
    }
  }
  return out;
}

/**
 * Generates the labelled corpus: for each class, samples in every context it fits and in every hiding
 * place, and hard negatives of every kind. Deterministic for a seed.
 */
export function generateCorpus(seed = CORPUS_SEED, options: { perContext?: number; perPlace?: number; perNegative?: number } = {}): Corpus {
  const r = new Rng(seed);
  const perContext = options.perContext ?? 12;
  const perPlace = options.perPlace ?? 8;
  const positives: Positive[] = [];
  for (const spec of CLASS_SPECS) {
    // Blocks fit fewer contexts; more samples each keeps every class's count comparable.
    const count = spec.block ? perContext * 5 * Object.keys(BLOCK_CONTEXTS).length : perContext * Object.keys(LINE_CONTEXTS).length;
    positives.push(...(spec.block ? blockPositives(r, spec, count) : linePositives(r, spec, count)), ...hiddenPositives(r, spec, perPlace));
  }
  const negatives: Negative[] = [];
  for (const [kind, make] of Object.entries(NEGATIVES)) {
    for (let i = 0; i < (options.perNegative ?? 150); i++) negatives.push({ text: make(r), kind });
  }
  return { seed, positives, negatives };
}
