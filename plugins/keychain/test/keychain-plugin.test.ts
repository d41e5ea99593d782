import { KeychainToken, type CommandIO, type Keychain } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin } from '@nodwyn/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keychainPlugin } from '../src/index.js';

const VALUE = 'xoxb-1234567890-abcdefghijklmnopqrstuvwx';

function io(stdin = ''): CommandIO & { out: string; err: string } {
  const sink = { out: '', err: '' };
  return Object.assign(sink, {
    stdin: Readable.from([Buffer.from(stdin)]),
    interactive: false,
    write: (t: string) => void (sink.out += t),
    error: (t: string) => void (sink.err += t),
  });
}

describe('the keychain plugin', () => {
  it('adds from piped stdin, lists without values, removes, through `nodwyn secret`', async () => {
    delete process.env.NODWYN_KEYCHAIN_PASSPHRASE;
    const t = await startTestKernel({ plugins: [keychainPlugin] });
    try {
      const secret = t.kernel.commands.get('secret').item;
      const add = io(`${VALUE}\n`);
      expect(await secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: add })).toBe(0);
      const list = io();
      expect(await secret.run({ args: ['list'], options: { json: true }, io: list })).toBe(0);
      expect(JSON.parse(list.out)).toEqual([{ name: 'slack', class: 'slack-token', created: expect.any(String) }]);
      expect(list.out + add.out + add.err).not.toContain(VALUE);
      expect(readFileSync(join(t.dataDir, 'keychain.json'), 'utf8')).not.toContain(VALUE);
      const usage = io();
      expect(await secret.run({ args: ['add', 'x'], options: {}, io: usage })).toBe(2);
      expect(usage.err).toContain('usage: nodwyn secret');
      expect(await secret.run({ args: ['rm', 'slack'], options: {}, io: io() })).toBe(0);
    } finally {
      await t.stop();
    }
  });

  it('reveals only to plugins that declare secrets.reveal', async () => {
    delete process.env.NODWYN_KEYCHAIN_PASSPHRASE;
    const seen: unknown[] = [];
    const trusted = testPlugin('egress-like', [], (ctx) => void seen.push(ctx.services.get(KeychainToken)), { requires: ['service:keychain'], permissions: ['secrets.reveal'] });
    const nosy = testPlugin('nosy', [], (ctx) => {
      try {
        ctx.services.get(KeychainToken);
      } catch (error) {
        seen.push((error as { envelope: unknown }).envelope);
      }
    }, { requires: ['service:keychain'] });
    const t = await startTestKernel({ plugins: [keychainPlugin, trusted, nosy] });
    try {
      await t.kernel.commands.get('secret').item.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: io(VALUE) });
      expect(await (seen[0] as Keychain).reveal('slack')).toBe(VALUE);
      expect(seen[1]).toMatchObject({ category: 'PERMISSION_DENIED', code: 'PLUGIN_PERMISSION_UNDECLARED', plugin: 'nosy' });
    } finally {
      await t.stop();
    }
  });
});
