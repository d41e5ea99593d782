import { TaintToken } from '@nodwyn/plugin-api';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileKeychain, keychainPlugin, keySourceFor } from '../src/index.js';

// No keyword, no known prefix, low enough entropy: L1 would not flag it anywhere, so only L2 knows it.
const VALUE = 'internal-build-service-password-quietly';

let dir: string;
let t: TestKernel | undefined;
beforeEach(() => {
  vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', '');
  vi.stubEnv('NODWYN_KEYCHAIN_KEY_FILE', '');
  dir = mkdtempSync(join(tmpdir(), 'nodwyn-preload-'));
});
afterEach(async () => {
  await t?.stop();
  t = undefined;
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

async function keychainWith(value: string): Promise<FileKeychain> {
  const keychain = new FileKeychain(join(dir, 'keychain.json'), keySourceFor(dir));
  await keychain.add('build', 'build-password', value);
  return keychain;
}

describe('the keychain teaches L2 its values at start', () => {
  it('a value never revealed is known to L2 in any session, and its use is not recorded', async () => {
    const keychain = await keychainWith(VALUE);
    t = await startTestKernel({ plugins: [keychainPlugin, redactL2Plugin], dataDir: dir });
    const tracker = t.host.service(TaintToken) ?? expect.fail('L2 is loaded');
    expect(tracker.matches('a-later-session', `password: ${VALUE.slice(3, 30)}`)).toEqual(['build-password']);
    expect((await keychain.list())[0]?.lastUsed).toBeUndefined();
  });

  it('a later process without the keychain plugin still knows the value, from L2 memory alone', async () => {
    await keychainWith(VALUE);
    t = await startTestKernel({ plugins: [keychainPlugin, redactL2Plugin], dataDir: dir });
    await t.stop();
    t = await startTestKernel({ plugins: [redactL2Plugin], dataDir: dir });
    expect(t.host.service(TaintToken)?.matches('s', `x ${VALUE} y`)).toEqual(['build-password']);
  });

  it('a keychain this process cannot unlock teaches nothing and still loads', async () => {
    vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', 'the passphrase it was made with');
    await keychainWith(VALUE);
    vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', '');
    t = await startTestKernel({ plugins: [keychainPlugin, redactL2Plugin], dataDir: dir });
    expect(t.host.service(TaintToken)?.matches('s', VALUE)).toEqual([]);
    expect(t.host.report().find((p) => p.name === '@nodwyn/plugin-keychain')?.state).toBe('started');
  });
});
