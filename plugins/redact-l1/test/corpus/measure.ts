import type { RedactionFinding } from '@nodwyn/plugin-api';
import type { Corpus } from './generate.js';

/** Recall and false positives of one class (or one place) on a corpus. */
export interface Score {
  readonly name: string;
  readonly positives: number;
  /** Secrets fully covered by a finding of the right class. */
  readonly found: number;
  /** Secrets fully covered by a finding of any class (the security-relevant number). */
  readonly covered: number;
  /** Negatives with a finding of this class. */
  readonly falsePositives: number;
}

export interface Report {
  readonly seed: number;
  readonly byClass: readonly Score[];
  readonly byPlace: readonly Score[];
  readonly negatives: number;
  /** Negatives with any finding. */
  readonly flaggedNegatives: number;
  /** Negative kinds that produced findings, with counts (for the failure message). */
  readonly falseKinds: Readonly<Record<string, number>>;
}

type Redact = (text: string) => { readonly findings: readonly RedactionFinding[] };

function tally(map: Map<string, { positives: number; found: number; covered: number; falsePositives: number }>, name: string) {
  let score = map.get(name);
  if (!score) map.set(name, (score = { positives: 0, found: 0, covered: 0, falsePositives: 0 }));
  return score;
}

/** Runs `redact` over the corpus and scores it per class and per place. */
export function measure(corpus: Corpus, redact: Redact): Report {
  const classes = new Map<string, { positives: number; found: number; covered: number; falsePositives: number }>();
  const places = new Map<string, { positives: number; found: number; covered: number; falsePositives: number }>();
  for (const p of corpus.positives) {
    const covering = redact(p.text).findings.filter((f) => f.start <= p.start && f.end >= p.end);
    const found = covering.some((f) => f.class === p.class) ? 1 : 0;
    for (const score of [tally(classes, p.class), tally(places, p.place)]) {
      score.positives++;
      score.found += found;
      score.covered += covering.length > 0 ? 1 : 0;
    }
  }
  let flagged = 0;
  const falseKinds: Record<string, number> = {};
  for (const n of corpus.negatives) {
    const findings = redact(n.text).findings;
    if (findings.length === 0) continue;
    flagged++;
    falseKinds[n.kind] = (falseKinds[n.kind] ?? 0) + 1;
    for (const cls of new Set(findings.map((f) => f.class))) tally(classes, cls).falsePositives++;
  }
  const list = (map: typeof classes) => [...map].map(([name, s]) => ({ name, ...s })).sort((a, b) => a.name.localeCompare(b.name));
  return { seed: corpus.seed, byClass: list(classes), byPlace: list(places), negatives: corpus.negatives.length, flaggedNegatives: flagged, falseKinds };
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

/** The report as Markdown tables (the README's "Measured on the generated corpus" section). */
export function formatReport(report: Report): string {
  const rows = (scores: readonly Score[], fp: boolean) =>
    scores.map((s) => `| ${s.name} | ${s.positives} | ${pct(s.found, s.positives)} | ${pct(s.covered, s.positives)} |${fp ? ` ${s.falsePositives} (${pct(s.falsePositives, report.negatives)}) |` : ''}`);
  return [
    `Seed ${report.seed}: ${report.byClass.reduce((n, s) => n + s.positives, 0)} positives, ${report.negatives} hard negatives, ${report.flaggedNegatives} flagged (${pct(report.flaggedNegatives, report.negatives)} false-positive rate overall).`,
    '',
    '| class | positives | recall (right class) | redacted (any class) | false positives |',
    '|---|---|---|---|---|',
    ...rows(report.byClass, true),
    '',
    '| where the secret sat | positives | recall (right class) | redacted (any class) |',
    '|---|---|---|---|',
    ...rows(report.byPlace, false),
  ].join('\n');
}
