import { redact } from '@nodwyn/plugin-redact-l1';
import { TaintRegistry } from '@nodwyn/plugin-redact-l2';
import { describe, expect, it } from 'vitest';
import { TextGuard, WITHHELD_LINE } from './text-guard.js';

const VALUE = 'q8Vb2LmZt4Rw9XkPc7Ny3HsJd6Fg';
const identity = { redact: (text: string) => ({ text, findings: [] }) };

describe('TextGuard', () => {
  it('replaces each line holding a remembered value, keeping the others', () => {
    const taint = new TaintRegistry();
    taint.remember('keychain', VALUE, ['github'], { pinned: true });
    const guarded = new TextGuard(identity, taint).guard(`first line\nthe copy ${VALUE} is here\nlast line`);
    expect(guarded).toEqual({ kind: 'text', text: `first line\n${WITHHELD_LINE}\nlast line` });
  });

  it('replaces both lines of a remembered value split across two', () => {
    const taint = new TaintRegistry();
    taint.remember('keychain', VALUE, ['github'], { pinned: true });
    expect(new TextGuard(identity, taint).guard(`a ${VALUE.slice(0, 14)}\n${VALUE.slice(14)} b\nc`)).toEqual({ kind: 'text', text: `${WITHHELD_LINE}\n${WITHHELD_LINE}\nc` });
  });

  it('lets L1 redact what it detects first, so a file with only detected secrets stays searchable', () => {
    const token = 'ghp_R4nd0mT0k3nV4lu3Th4tMustN3v3rL34kX9';
    const taint = new TaintRegistry();
    taint.remember('s', token, ['github']);
    const guarded = new TextGuard({ redact }, taint).guard(`const token = "${token}";`);
    expect(guarded.kind).toBe('text');
    expect(guarded.kind === 'text' && guarded.text).toMatch(/^const token = "\[REDACTED [a-z-]+\]";$/);
  });
});
