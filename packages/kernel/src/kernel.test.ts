import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from './log/index.js';
import { Kernel } from './kernel.js';

const folder = (): string => realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-over-')));

describe('Kernel.over', () => {
  it('gives each workspace its own kernel over one shared log, which closing a kernel leaves open', () => {
    const log = EventLog.open({ path: ':memory:', key: randomBytes(32) });
    const a = Kernel.over(log, { workspace: folder() });
    const b = Kernel.over(log, { workspace: folder() });
    const first = a.sessions.create({ workspace: a.workspace });
    const second = b.sessions.create({ workspace: b.workspace });
    expect(b.sessions.get(first).workspace).toBe(a.workspace);
    expect(a.sessions.list().map((s) => s.id).sort()).toEqual([first, second].sort());
    a.close();
    b.append(second, { type: 'note.added', actor: 'kernel', payload: { text: 'still open' } });
    expect(log.read(second)).toHaveLength(2);
    expect(log.verify().ok).toBe(true);
    log.close();
  });
});
