/** One parsed `[tools.shell] allow` entry. */
export interface AllowEntry {
  /** The entry as the person wrote it. */
  readonly source: string;
  /** Its words, in order. */
  readonly words: readonly string[];
  /** True for `git log *`: the words may be followed by any further plain words. */
  readonly prefix: boolean;
}

/**
 * What a plain word may hold. Anything else makes a command unmatchable, because bash gives it meaning:
 * `; & |` and newlines chain commands, `` ` `` `$ ( )` substitute, `< >` redirect, quotes and `\` can hide
 * any of these, `* ? [ ] { } ~` expand one word into others, `#` starts a comment and `!` negates.
 * Being an allow-list of characters, it also refuses look-alikes such as a non-breaking space.
 */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./^-]+$/;

/** bash splits words on blanks; a newline is not a blank but a command separator, so it is refused. */
const BLANKS = /[ \t]+/;

/** The words of `text`, or undefined when it holds anything but plain words and blanks. */
export function plainWords(text: string): string[] | undefined {
  const words = text.split(BLANKS).filter((word) => word !== '');
  return words.length > 0 && words.every((word) => PLAIN_WORD.test(word)) ? words : undefined;
}

/**
 * Parses an allow-list entry: an exact command (`git status`) or a prefix ending in ` *` (`git log *`,
 * which also matches plain `git log`). Returns undefined for an entry that could never match safely.
 */
export function parseAllowEntry(source: string): AllowEntry | undefined {
  const raw = source.split(BLANKS).filter((word) => word !== '');
  const prefix = raw.at(-1) === '*';
  const words = plainWords((prefix ? raw.slice(0, -1) : raw).join(' '));
  return words ? { source, words, prefix } : undefined;
}

/**
 * True when `command` is allowed without a confirmation: it is made of plain words only (so nothing can
 * be chained, substituted or redirected onto it) and those words equal an exact entry, or begin with a
 * prefix entry's words.
 */
export function isAllowedCommand(command: string, allow: readonly AllowEntry[]): boolean {
  const words = plainWords(command);
  if (!words) return false;
  return allow.some((entry) => {
    if (entry.prefix ? words.length < entry.words.length : words.length !== entry.words.length) return false;
    return entry.words.every((word, index) => words[index] === word);
  });
}
