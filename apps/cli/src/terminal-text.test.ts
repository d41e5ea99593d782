import { describe, expect, it } from 'vitest';
import { forTerminal, jsonText } from './terminal-text.js';

const HOSTILE = 'line one\n\x1b[1A\x1b[2Kfake\x1b]52;c;ZXZpbA==\x07 \x9b2J back\bspace over\rwrite \u202eevil\u2066x\u2069';

describe('text printed for a person', () => {
  it('shows every control character as a visible escape, keeping newlines and tabs', () => {
    const shown = forTerminal(`${HOSTILE}\tend\r\n`);
    expect(shown).toBe(
      'line one\n\\x1b[1A\\x1b[2Kfake\\x1b]52;c;ZXZpbA==\\x07 \\x9b2J back\\x08space over\\x0dwrite \\u202eevil\\u2066x\\u2069\tend\n',
    );
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('writes JSON with C1 and bidirectional characters escaped, parsing back to the same value', () => {
    const text = jsonText({ text: HOSTILE });
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual({ text: HOSTILE });
    expect(JSON.parse(jsonText([HOSTILE], 2))).toEqual([HOSTILE]);
  });
});
