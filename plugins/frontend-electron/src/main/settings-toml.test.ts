import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import { mergeSettings } from './settings-toml.js';

describe('mergeSettings', () => {
  it('replaces the given sections and keeps every other one', () => {
    const merged = parse(mergeSettings('[model]\nname = "a"\nold = 1\n\n[keep]\nx = "y"\n', { model: { name: 'b', budget: 3 } }));
    expect(merged).toEqual({ model: { name: 'b', budget: 3 }, keep: { x: 'y' } });
  });

  it('writes a new file when there was none, and drops null values (TOML has no null)', () => {
    expect(parse(mergeSettings(undefined, { serve: { host: null, port: 0 } }))).toEqual({ serve: { port: 0 } });
  });

  it('refuses a config.toml that does not parse, with an envelope', () => {
    let caught: unknown;
    try {
      mergeSettings('[model\nname=', { model: {} });
    } catch (error) {
      caught = error;
    }
    expect(isEnvelopeError(caught) && caught.envelope.code).toBe('DESKTOP_CONFIG_INVALID');
  });
});
