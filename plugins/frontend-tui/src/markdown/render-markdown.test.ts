import { beforeAll, describe, expect, it } from 'vitest';
import { Paint } from '../terminal/paint.js';
import { lineText } from '../terminal/wrap.js';
import { loadHighlighter } from './highlight-code.js';
import { renderMarkdown } from './render-markdown.js';

const text = (source: string, width = 60): string[] => renderMarkdown(source, width).map(lineText);
const painted = (source: string, color: boolean, width = 60): string => new Paint(color).lines(renderMarkdown(source, width));

describe('renderMarkdown', () => {
  beforeAll(() => loadHighlighter());

  it('draws headings without their hashes, bold, and separated from the next block', () => {
    const lines = renderMarkdown('# Title\n\n## Part\n\nBody text.', 40);
    expect(lines.map(lineText)).toEqual(['Title', '', 'Part', '', 'Body text.']);
    expect(lines[0]![0]!.style).toMatchObject({ bold: true, underline: true });
    expect(lines[2]![0]!.style).toMatchObject({ bold: true });
  });

  it('draws lists with markers, numbers and hanging indents, nested lists indented', () => {
    expect(text('- one\n- two that is long enough to wrap around\n  - nested', 24)).toEqual(['• one', '• two that is long', '  enough to wrap around', '  • nested']);
    expect(text('3. three\n4. four\n\n- [x] done\n- [ ] open')).toEqual(['3. three', '4. four', '', '• [x] done', '• [ ] open']);
  });

  it('colours a code block by its language behind a gutter, and keeps every character of a long line', () => {
    const lines = renderMarkdown('```ts\nconst answer = "42";\n```', 60);
    expect(lines.map(lineText)).toEqual(['│ const answer = "42";']);
    const out = painted('```ts\nconst answer = "42";\n```', true);
    expect(out).toContain('\u001B[35mconst\u001B[0m');
    expect(out).toContain('\u001B[32m"42"\u001B[0m');
    expect(text('```\n' + 'x'.repeat(30) + '\n```', 20)).toEqual(['│ ' + 'x'.repeat(18), '│ ' + 'x'.repeat(12)]);
  });

  it('shows code in an unknown language plain', () => {
    expect(painted('```nosuchlang\nlet x\n```', true)).not.toContain('\u001B[3');
  });

  it('fits a table to the width: a bold ruled header, aligned cells, wrapped when it must', () => {
    const table = '| Name | Count |\n|------|------:|\n| a | 1 |\n| **bb** | 22 |';
    expect(text(table)).toEqual(['Name │ Count', '─────┼──────', 'a    │     1', 'bb   │    22']);
    const narrow = text('| Column one | Column two |\n|---|---|\n| some longer text here | more text here |', 24);
    expect(narrow.every((l) => l.length <= 24)).toBe(true);
    expect(narrow.join('\n')).toContain('some');
    expect(narrow.join('\n')).toContain('here');
  });

  it('styles inline code, bold, italics and links, with the link target shown', () => {
    const lines = renderMarkdown('Use `npm test`, **now**, _please_: [docs](https://x.dev/a).', 80);
    expect(lineText(lines[0]!)).toBe('Use npm test, now, please: docs (https://x.dev/a).');
    const styles = Object.fromEntries(lines[0]!.map((s) => [s.text, s.style]));
    expect(styles['npm test']).toMatchObject({ fg: 'cyan' });
    expect(styles.now).toMatchObject({ bold: true });
    expect(styles.please).toMatchObject({ italic: true });
    expect(styles.docs).toMatchObject({ underline: true });
  });

  it('writes no colour under NO_COLOR, and keeps the structure', () => {
    const source = '# T\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    const out = painted(source, false);
    expect(out).not.toMatch(/\u001B\[(3\d|9\d)/);
    expect(out).toContain('│ const a = 1;');
    expect(out.replace(/\u001B\[[0-9;]*m/g, '')).toContain('a │ b');
  });

  it('never lets the text drive the terminal: escape sequences are dropped', () => {
    expect(text('Hello \u001B]0;pwned\u0007\u001B[2Jworld')).toEqual(['Hello world']);
  });

  it('decodes entities and keeps quotes, rules and soft line breaks readable', () => {
    expect(text('a &amp; b\nc &#x2192; d\n\n> quoted', 20)).toEqual(['a & b c → d', '', '▌ quoted']);
    expect(text('---', 10)).toEqual(['──────────']);
  });
});
