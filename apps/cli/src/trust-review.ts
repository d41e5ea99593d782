import { changedFiles, REPO_DIR, sortedByPath, type FolderEntry, type RepoSettings, type RepoTrust } from '@nodwyn/runtime';

// Past this much text the review prints a summary and points at `--show`: a person asked to confirm a
// wall of text scrolls past it, which is no review at all.
const SHOW_LIMIT = 16 * 1024;

// Control characters, C1 controls, zero-width and bidirectional marks: printed raw, they could move the
// cursor, erase lines or reorder text, so a file could look different on screen from what it says.
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Makes text safe to show for review: every character that could hide or move text becomes visible. */
export function escapeForReview(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.codePointAt(0)!;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** What `nodwyn trust` shows before it asks: the files (in full, or a summary), what applies, what not. */
export function formatReview(trust: RepoTrust, settings: RepoSettings, show: boolean): string {
  const { folder, record } = trust;
  const entries = sortedByPath(folder.entries);
  const total = entries.reduce((sum, e) => sum + e.data.length, 0);
  const full = show || total <= SHOW_LIMIT;
  const lines = [`Repository configuration in ${escapeForReview(folder.dir)}: ${entries.length} file(s), ${total} bytes.`];
  if (trust.status === 'changed' && record) lines.push(`Changed since you trusted it (${record.trusted_at}): ${changedFiles(folder, record).map(escapeForReview).join(', ')}.`);
  lines.push('');
  for (const entry of entries) lines.push(...entryLines(entry, full));
  if (!full) lines.push(`(Contents not shown: more than ${SHOW_LIMIT} bytes. Run \`nodwyn trust --show\` to print every file before you agree.)`, '');
  lines.push(`nodwyn will apply: ${settings.applied.length > 0 ? settings.applied.join(', ') : 'nothing (no config.toml settings it reads)'}`);
  if (settings.ignored.length > 0) lines.push(`nodwyn will ignore (only your own config may set them): ${settings.ignored.join(', ')}`);
  lines.push(`Content hash: ${folder.hash}`);
  return `${lines.join('\n')}\n`;
}

function entryLines(entry: FolderEntry, full: boolean): string[] {
  const name = `${REPO_DIR}/${escapeForReview(entry.path)}`;
  const text = utf8(entry.data);
  if (!full) return [`  ${name} (${entry.data.length} bytes)`];
  if (text === undefined) return [`--- ${name} (${entry.data.length} bytes, binary: not shown)`, ''];
  const body = escapeForReview(text);
  return [`--- ${name} (${entry.data.length} bytes)`, body.endsWith('\n') ? body.slice(0, -1) : body, `--- end of ${name}`, ''];
}

function utf8(data: Buffer): string | undefined {
  if (data.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
