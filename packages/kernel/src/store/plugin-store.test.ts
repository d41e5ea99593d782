import { EnvelopeError } from '@nodwyn/plugin-api';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../log/index.js';

const logs: EventLog[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const log of logs.splice(0)) log.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(path = ':memory:', key = randomBytes(32)): EventLog {
  const log = EventLog.open({ path, key });
  logs.push(log);
  return log;
}

describe('plugin store', () => {
  it('keeps each plugin to its own keys, lists by prefix in key order, and deletes', () => {
    const log = open();
    const a = log.store('a');
    const b = log.store('b');
    a.put('cap/x/2', { v: 2 });
    a.put('cap/x/1', { v: 1 });
    a.put('other', [1, 'two', null]);
    b.put('cap/x/1', 'b only');
    expect(a.get('cap/x/1')).toEqual({ v: 1 });
    expect(b.get('cap/x/1')).toBe('b only');
    expect(b.get('other')).toBeUndefined();
    expect(a.list('cap/').map((e) => e.key)).toEqual(['cap/x/1', 'cap/x/2']);
    a.put('cap/x/1', { v: 'again' });
    expect(a.get('cap/x/1')).toEqual({ v: 'again' });
    expect(a.delete('cap/x/1')).toBe(true);
    expect(a.delete('cap/x/1')).toBe(false);
    expect(a.list().map((e) => e.key)).toEqual(['cap/x/2', 'other']);
  });

  it('refuses values that are not JSON and keys that are empty, with envelopes', () => {
    const store = open().store('p');
    expect(() => store.put('k', { when: new Date() })).toThrow(EnvelopeError);
    expect(() => store.put('k', { n: Number.NaN })).toThrow(/STORE_VALUE_INVALID|JSON/);
    expect(() => store.put('', 1)).toThrow(/non-empty strings/);
    expect(store.list()).toEqual([]);
  });

  it('commits writes and events together, or rolls both back; subscribers hear only committed events', () => {
    const log = open();
    const store = log.store('p');
    const heard: string[] = [];
    log.subscribe((event) => heard.push(event.type));
    expect(() =>
      store.transaction(() => {
        store.put('head', 1);
        log.append('s', { type: 'thing.done', actor: 'plugin:p', payload: {} });
        throw new Error('half-way');
      }),
    ).toThrow(/half-way/);
    expect(store.get('head')).toBeUndefined();
    expect(log.read('s')).toEqual([]);
    expect(heard).toEqual([]);
    const result = store.transaction(() => {
      store.put('head', 2);
      log.append('s', { type: 'thing.done', actor: 'plugin:p', payload: {} });
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(store.get('head')).toBe(2);
    expect(log.read('s').map((e) => e.type)).toEqual(['thing.done']);
    expect(heard).toEqual(['thing.done']);
    expect(log.verify('s').ok).toBe(true);
  });

  it('refuses an async transaction function instead of committing before it finishes', () => {
    const store = open().store('p');
    expect(() => store.transaction(() => Promise.resolve(store.put('k', 1)) as never)).toThrow(/synchronously/);
  });

  it('survives reopening the file: the store lives in the kernel database next to the log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nodwyn-store-'));
    dirs.push(dir);
    const key = randomBytes(32);
    const first = open(join(dir, 'log.db'), key);
    first.store('p').put('k', { kept: true });
    first.close();
    expect(open(join(dir, 'log.db'), key).store('p').get('k')).toEqual({ kept: true });
  });
});
