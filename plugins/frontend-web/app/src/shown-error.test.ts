import { describe, expect, it } from 'vitest';
import { envelopeOf, shownError } from './shown-error.js';

const envelope = { status: 'error', category: 'NOT_FOUND', code: 'SESSION_NOT_FOUND', remediation: 'List sessions.' };

describe('shownError', () => {
  it('shows the envelope a ProtocolError carries', () => {
    const error = Object.assign(new Error('x'), { envelope });
    expect(shownError(error)).toEqual({ category: 'NOT_FOUND', code: 'SESSION_NOT_FOUND', remediation: 'List sessions.' });
  });

  it('reads an envelope as JSON text and ignores text that is not one', () => {
    expect(envelopeOf(JSON.stringify(envelope))?.code).toBe('SESSION_NOT_FOUND');
    expect(envelopeOf('{ not json')).toBeUndefined();
    expect(envelopeOf({ status: 'ok' })).toBeUndefined();
  });

  it('falls back to the message of an error without an envelope', () => {
    expect(shownError(new Error('socket closed'))).toEqual({ remediation: 'socket closed' });
    expect(shownError('plain')).toEqual({ remediation: 'plain' });
  });
});
