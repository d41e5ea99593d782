import type { Candidate, Scan } from './candidate.js';
import { buildPrefilter, occursAt } from './prefilter.js';
import { RULES } from './rules/index.js';

const PREFILTER = buildPrefilter(RULES);

/**
 * Runs every rule over `text` once: the prefilter finds anchors, each anchor's handlers look around it
 * and add candidates to `out`. `nested` is set for decoded wrapper contents, where wrappers do not nest.
 */
export function scanText(text: string, nested: boolean, out: Candidate[]): void {
  const { pattern, byFirst } = PREFILTER;
  const scan: Scan = {
    text,
    nested,
    add: (candidate) => out.push(candidate),
    inner(decoded) {
      const found: Candidate[] = [];
      scanText(decoded, true, found);
      return found;
    },
  };
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index;
    // Anchors overlap (`dapi` in `ddApiKey` hides `apikey`), so the next search starts one further on,
    // unless a handler consumed a block (a PEM body) that must not be searched again.
    let resume = start + 1;
    // The regex reports one anchor, in any case; each anchor starting here is confirmed on its own.
    for (const entry of byFirst.get(match[0][0]!.toLowerCase()) ?? []) {
      if (!occursAt(text, entry, start)) continue;
      for (const handle of entry.handlers) {
        const next = handle(scan, start, start + entry.text.length);
        if (typeof next === 'number' && next > resume) resume = next;
      }
    }
    // A handler may have scanned a decoded value with this same pattern; resume from our own place.
    pattern.lastIndex = resume;
  }
}
