import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from './launch-args.js';

describe('parseTuiArgs', () => {
  it('reads the three ways the app starts the TUI, each optionally attached', () => {
    expect(parseTuiArgs([])).toEqual({ pick: false, attached: false, unknown: [] });
    expect(parseTuiArgs(['--session', 'abc'])).toEqual({ session: 'abc', pick: false, attached: false, unknown: [] });
    expect(parseTuiArgs(['--session=abc', '--attached'])).toEqual({ session: 'abc', pick: false, attached: true, unknown: [] });
    expect(parseTuiArgs(['--pick', '--attached'])).toEqual({ pick: true, attached: true, unknown: [] });
  });

  it('keeps what it does not know to report it, and prefers a session over a pick', () => {
    expect(parseTuiArgs(['--pick', '--session', 'x', '--weird'])).toEqual({ session: 'x', pick: false, attached: false, unknown: ['--weird'] });
    expect(parseTuiArgs(['--session'])).toEqual({ pick: false, attached: false, unknown: ['--session'] });
  });
});
