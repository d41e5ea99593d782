/**
 * What the words after `nodwyn` mean when the first is neither a command nor an option: a prompt, or a
 * mistyped command. A typo must never become a model run (it costs money and does something nobody
 * asked), and a prompt must not need `run` in front of it. The rule:
 *
 * - the words up to the first option are the prompt when the first word holds a space (a quoted prompt:
 *   `nodwyn "fix the parser"`), or when there are two or more words and the first is not close to a
 *   command name (`nodwyn fix the parser`);
 * - anything else is an unknown command (exit 2): one bare word (`nodwyn frobnicate`), or a first word
 *   close to a command (`nodwyn lgo list`), with commander's "Did you mean" suggestion.
 *
 * "Close" is commander's own suggestion rule (the optimal string alignment distance is below 3 and at
 * least 40% of the longer word is kept), so nodwyn suggests exactly the commands it refuses to guess past.
 */
export type RootWords =
  | { readonly kind: 'prompt'; readonly prompt: string; readonly rest: readonly string[] }
  | { readonly kind: 'unknown'; readonly word: string; readonly suggestions: readonly string[] };

/** Reads `args` (everything after `nodwyn`, the first a word that names no command) against `commands`. */
export function readRootWords(args: readonly string[], commands: readonly string[]): RootWords {
  const end = args.findIndex((arg) => arg.startsWith('-'));
  const words = end === -1 ? args : args.slice(0, end);
  const first = words[0] ?? '';
  const suggestions = similarCommands(first, commands);
  const quoted = /\s/.test(first);
  if (quoted || (words.length >= 2 && suggestions.length === 0)) return { kind: 'prompt', prompt: words.join(' '), rest: args.slice(words.length) };
  return { kind: 'unknown', word: first, suggestions };
}

/** The command names closest to `word` by commander's rule, in name order; none when nothing is close. */
export function similarCommands(word: string, commands: readonly string[]): string[] {
  let best = MAX_DISTANCE;
  let similar: string[] = [];
  for (const candidate of new Set(commands)) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) similar.push(candidate);
  }
  return similar.sort((a, b) => a.localeCompare(b));
}

const MAX_DISTANCE = 3;
const MIN_SIMILARITY = 0.4;

/** Optimal string alignment distance (Damerau-Levenshtein where no substring is edited twice). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const row = d[i]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
