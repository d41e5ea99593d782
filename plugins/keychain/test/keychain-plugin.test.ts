import { KeychainToken, type CliCommand, type CommandIO, type Keychain, type PluginDefinition } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keychainPlugin } from '../src/index.js';
import { envelopeOf } from './envelope-of.js';

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

/** A plugin that may reveal (it declares `secrets.reveal`), as the egress plugin does. */
function revealer(got: { keychain?: Keychain }) {
  return testPlugin('revealer', [], (ctx) => void (got.keychain = ctx.services.get(KeychainToken)), { requires: ['service:keychain'], permissions: ['secrets.reveal'] });
}

let t: TestKernel | undefined;
beforeEach(() => {
  vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', '');
  vi.stubEnv('NODWYN_KEYCHAIN_KEY_FILE', '');
});
afterEach(async () => {
  await t?.stop();
  t = undefined;
  vi.unstubAllEnvs();
});

async function start(...plugins: PluginDefinition[]): Promise<{ secret: CliCommand; kernel: TestKernel }> {
  t = await startTestKernel({ plugins: [keychainPlugin, ...plugins] });
  return { secret: t.kernel.commands.get('secret').item, kernel: t };
}

describe('the keychain plugin', () => {
  it('declares exactly its service and command, and only file permissions', () => {
    expect(keychainPlugin.manifest).toMatchObject({ name: '@nodwyn/plugin-keychain', version: '0.1.0', apiVersion: '^0.1.0', provides: ['service:keychain', 'command:secret'], permissions: ['fs.read', 'fs.write'] });
  });

  it('adds from piped stdin (creating the key file, said on stderr), lists without values, removes', async () => {
    const { secret, kernel } = await start();
    const add = io(`${VALUE}\n`);
    expect(await secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: add })).toBe(0);
    expect(add.err).toContain(`Created the key file ${join(kernel.dataDir, 'keychain.key')}`);
    const list = io();
    expect(await secret.run({ args: ['list'], options: { json: true }, io: list })).toBe(0);
    expect(JSON.parse(list.out)).toEqual([{ name: 'slack', class: 'slack-token', created: expect.any(String), lastUsed: null }]);
    const table = io();
    await secret.run({ args: ['list'], options: {}, io: table });
    expect(table.out).toMatch(/^NAME +CLASS +CREATED +LAST USED\nslack +slack-token +\S+ +never\n$/);
    expect(list.out + table.out + add.out + add.err).not.toContain(VALUE);
    expect(readFileSync(join(kernel.dataDir, 'keychain.json')).includes(Buffer.from(VALUE))).toBe(false);
    expect(await secret.run({ args: ['rm', 'slack'], options: {}, io: io() })).toBe(0);
    const empty = io();
    await secret.run({ args: ['list'], options: { json: true }, io: empty });
    expect(JSON.parse(empty.out)).toEqual([]);
  });

  it('uses NODWYN_KEYCHAIN_PASSPHRASE for a new keychain and creates no key file', async () => {
    vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', 'correct horse battery staple');
    const { secret, kernel } = await start();
    const add = io(VALUE);
    await secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: add });
    expect(add.err).toBe('');
    expect(existsSync(join(kernel.dataDir, 'keychain.key'))).toBe(false);
    expect(JSON.parse(readFileSync(join(kernel.dataDir, 'keychain.json'), 'utf8')).kdf.type).toBe('scrypt');
  });

  it.each([
    [['add', 'slack'], {}, 'add needs --class'],
    [['add'], { class: 'c' }, 'exactly one NAME'],
    [['add', 'slack', VALUE], { class: 'c' }, 'exactly one NAME'],
    [['rm'], {}, 'rm takes exactly one NAME'],
    [['list', 'x'], {}, 'list takes no NAME'],
    [['show', 'slack'], {}, 'unknown action "show"'],
    [[], {}, 'name an action'],
  ])('answers %j with a usage error (exit 2) that never repeats a value', async (args, options, reason) => {
    const { secret } = await start();
    const usage = io();
    expect(await secret.run({ args, options, io: usage })).toBe(2);
    expect(usage.err).toContain(reason);
    expect(usage.err).toContain('usage: nodwyn secret');
    expect(usage.err).not.toContain(VALUE);
  });

  it('fails with an envelope (exit 3 in the CLI) before reading a value it would refuse', async () => {
    const { secret } = await start();
    await secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: io(VALUE) });
    const again = io('second-value');
    expect((await envelopeOf(secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: again }), [VALUE])).code).toBe('SECRET_EXISTS');
    expect((again.stdin as Readable).readableEnded).toBe(false);
    expect((await envelopeOf(secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: io('') }))).code).toBe('SECRET_EXISTS');
    expect((await envelopeOf(secret.run({ args: ['add', 'new'], options: { class: 'slack-token' }, io: io('\n') }))).code).toBe('SECRET_VALUE_INVALID');
    expect((await envelopeOf(secret.run({ args: ['rm', 'missing'], options: {}, io: io() }))).code).toBe('SECRET_NOT_FOUND');
  });

  it('reveals to a plugin that declares secrets.reveal, and records the use', async () => {
    const got: { keychain?: Keychain } = {};
    const { secret } = await start(revealer(got));
    await secret.run({ args: ['add', 'slack'], options: { class: 'slack-token' }, io: io(VALUE) });
    expect(await got.keychain!.info('slack')).toMatchObject({ name: 'slack', class: 'slack-token' });
    expect(await got.keychain!.reveal('slack')).toBe(VALUE);
    expect((await got.keychain!.list())[0]?.lastUsed).toEqual(expect.any(String));
    expect(Object.keys(got.keychain!).sort()).toEqual(['info', 'list', 'remove', 'reveal', 'store']);
  });

  it('stores, replaces and removes a value for a plugin, sealed like one added at the CLI', async () => {
    const got: { keychain?: Keychain } = {};
    const { kernel } = await start(revealer(got));
    const keychain = got.keychain!;
    await keychain.store('acme.access', 'oauth-token', VALUE);
    expect(await keychain.info('acme.access')).toMatchObject({ name: 'acme.access', class: 'oauth-token' });
    expect(readFileSync(join(kernel.dataDir, 'keychain.json')).includes(Buffer.from(VALUE))).toBe(false);
    await keychain.store('acme.access', 'oauth-token', 'replaced-value-0192');
    expect(await keychain.reveal('acme.access')).toBe('replaced-value-0192');
    expect(await keychain.remove('acme.access')).toBe(true);
    expect(await keychain.remove('acme.access')).toBe(false);
    expect(await keychain.info('acme.access')).toBeUndefined();
    const list = io();
    await kernel.kernel.commands.get('secret').item.run({ args: ['list'], options: { json: true }, io: list });
    expect(JSON.parse(list.out)).toEqual([]);
  });

  it('refuses to store a value under an invalid name or class, with an envelope', async () => {
    const got: { keychain?: Keychain } = {};
    await start(revealer(got));
    expect((await envelopeOf(got.keychain!.store('no spaces', 'oauth-token', VALUE), [VALUE])).code).toBe('SECRET_NAME_INVALID');
    expect((await envelopeOf(got.keychain!.store('acme', 'Upper', VALUE), [VALUE])).code).toBe('SECRET_CLASS_INVALID');
  });

  it('refuses the service to a plugin without secrets.reveal', async () => {
    const seen: unknown[] = [];
    const nosy = testPlugin('nosy', [], (ctx) => {
      try {
        seen.push(ctx.services.get(KeychainToken));
      } catch (error) {
        seen.push((error as { envelope?: unknown }).envelope);
      }
    }, { requires: ['service:keychain'] });
    await start(nosy);
    expect(seen).toEqual([expect.objectContaining({ category: 'PERMISSION_DENIED', code: 'PLUGIN_PERMISSION_UNDECLARED', plugin: 'nosy' })]);
  });
});
