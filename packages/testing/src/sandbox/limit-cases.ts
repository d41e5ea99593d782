import { ContractCodes } from '@nodwyn/plugin-api';
import type { SandboxResult } from '@nodwyn/plugin-api/sandbox';
import { expect } from 'vitest';
import { expectFailure, type EscapeCase } from './escape-case.js';

/** Long enough that a run ending with TIMEOUT or CANCELLED was ended by the limit under test, not this. */
const GENEROUS_MS = 30_000;

/** A run that never ends on its own ends with TIMEOUT: busy, spinning on microtasks, or stuck in a door. */
export const timeoutCase: EscapeCase = {
  id: 'timeout',
  title: 'an infinite loop ends with TIMEOUT',
  setup(f) {
    f.granted.route('/hang-timeout', () => undefined);
    const limits = { timeoutMs: 300 };
    const attempts: [string, string, object?][] = [
      ['busy loop', 'export default () => { for (;;) {} }'],
      ['microtask loop', 'export default async () => { for (;;) await null; }'],
      ['stuck in fetch', 'export default (a, nodwyn) => nodwyn.fetch(a.url)', { net: [f.granted.host] }],
    ];
    return attempts.map(([label, code, grants]) => ({
      label,
      input: { code, args: { url: `${f.granted.origin}/hang-timeout` }, grants: grants ?? {}, limits },
      expect: (r) => expectFailure(r, label, 'TIMEOUT', ContractCodes.SANDBOX_TIMEOUT),
    }));
  },
};

/** Allocation past the memory limit ends the run with LIMIT_EXCEEDED. */
export const memoryCase: EscapeCase = {
  id: 'memory',
  title: 'allocating until out of memory ends with LIMIT_EXCEEDED',
  setup: () => {
    const limits = { memoryMb: 32, timeoutMs: GENEROUS_MS };
    const attempts: [string, string][] = [
      ['arrays', 'export default () => { const keep = []; for (;;) { const chunk = []; for (let i = 0; i < 100000; i++) chunk.push(i); keep.push(chunk); } }'],
      ['objects', "export default () => { const keep = {}; for (let i = 0; ; i++) keep['k' + i] = { i, s: 'v' + i }; }"],
    ];
    return attempts.map(([label, code]) => ({ label, input: { code, limits }, expect: (r) => expectFailure(r, label, 'LIMIT_EXCEEDED', ContractCodes.SANDBOX_MEMORY) }));
  },
};

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Logs past the cap are cut (or the run refused); a result past the cap is refused. */
export const outputFloodCase: EscapeCase = {
  id: 'output-flood',
  title: 'flooding output is capped',
  setup: () => {
    const outputCap = 64 * 1024;
    const limits = { outputCap, timeoutMs: GENEROUS_MS };
    return [
      {
        label: 'log flood',
        input: { code: "export default (a, nodwyn) => { for (let i = 0; i < 100000; i++) nodwyn.log('x'.repeat(100)); return 'done'; }", limits },
        expect(r: SandboxResult) {
          expect(bytes(r.logs)).toBeLessThanOrEqual(outputCap);
          if (r.ok) expect(r.truncated).toBe(true);
          else expectFailure(r, 'log flood', 'LIMIT_EXCEEDED');
        },
      },
      {
        label: 'huge result',
        input: { code: `export default () => 'y'.repeat(${outputCap * 2})`, limits },
        expect(r: SandboxResult) {
          expectFailure(r, 'huge result', 'LIMIT_EXCEEDED');
          expect(bytes(JSON.stringify(r))).toBeLessThan(outputCap);
        },
      },
    ];
  },
};

/** An aborted signal ends the run with CANCELLED: before it starts, while it computes, while it waits on a door. */
export const cancelCase: EscapeCase = {
  id: 'cancel',
  title: 'cancelling a run ends it with CANCELLED',
  setup(f) {
    const early = new AbortController();
    early.abort();
    const busy = new AbortController();
    const waiting = new AbortController();
    f.granted.route('/cancel-busy', (_seen, res) => {
      res.end('started');
      busy.abort();
    });
    f.granted.route('/cancel-waiting', () => waiting.abort());
    const limits = { timeoutMs: GENEROUS_MS };
    const grants = { net: [f.granted.host] };
    const url = (path: string) => ({ url: `${f.granted.origin}${path}` });
    return [
      { label: 'aborted before', input: { code: 'export default () => 1', signal: early.signal, limits }, expect: (r) => expectFailure(r, 'aborted before', 'CANCELLED') },
      {
        label: 'while computing',
        input: { code: 'export default async (a, nodwyn) => { await nodwyn.fetch(a.url); for (;;) {} }', args: url('/cancel-busy'), grants, limits, signal: busy.signal },
        expect: (r) => expectFailure(r, 'while computing', 'CANCELLED'),
      },
      {
        label: 'while waiting on a door',
        input: { code: 'export default (a, nodwyn) => nodwyn.fetch(a.url)', args: url('/cancel-waiting'), grants, limits, signal: waiting.signal },
        expect: (r) => expectFailure(r, 'while waiting on a door', 'CANCELLED'),
      },
    ];
  },
};
