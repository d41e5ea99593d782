import { describe, expect, it } from 'vitest';
import { SECRET_CLASSES } from '../src/classes.js';
import { redact } from '../src/redactor.js';
import { CORPUS_SEED, generateCorpus } from './corpus/generate.js';
import { formatReport, measure } from './corpus/measure.js';

/**
 * Floors the detector meets on the generated corpus with room for noise, and that a broken class or a
 * new source of false positives would cross. The README's table is this test's output.
 */
const RECALL_FLOOR = 0.98;
const REDACTED_FLOOR = 0.99;
const PLACE_RECALL_FLOOR = 0.97;
const FALSE_POSITIVE_CEILING = 0.0025;

/** The seed the rules were tuned on, and one they never saw (a guard against fitting the first). */
const SEEDS = [CORPUS_SEED, CORPUS_SEED + 1];

describe.each(SEEDS)('quality on the generated corpus (seed %i)', (seed) => {
  const report = measure(generateCorpus(seed), redact);
  if (seed === CORPUS_SEED) console.log(formatReport(report));

  it.each(report.byClass.filter((s) => s.positives > 0).map((s) => [s.name, s] as const))('%s: recall and redaction meet their floors', (_name, score) => {
    expect(score.found / score.positives).toBeGreaterThanOrEqual(RECALL_FLOOR);
    expect(score.covered / score.positives).toBeGreaterThanOrEqual(REDACTED_FLOOR);
  });

  it.each(report.byPlace.map((s) => [s.name, s] as const))('secrets hidden as %s are still found', (_name, score) => {
    expect(score.found / score.positives).toBeGreaterThanOrEqual(PLACE_RECALL_FLOOR);
  });

  it(`flags at most ${FALSE_POSITIVE_CEILING * 100}% of the hard negatives`, () => {
    expect(report.flaggedNegatives / report.negatives, JSON.stringify(report.falseKinds)).toBeLessThanOrEqual(FALSE_POSITIVE_CEILING);
  });

  it('has at least 100 positives of every class the detector names', () => {
    const positives = new Map(report.byClass.map((s) => [s.name, s.positives]));
    for (const cls of SECRET_CLASSES) expect(positives.get(cls), cls).toBeGreaterThanOrEqual(100);
  });
});
