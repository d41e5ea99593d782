import type { ConfirmationRequest } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { admissionProof, Registry } from '../src/index.js';
import { SLUGIFY, startCapabilityKernel } from './kernel.js';

const kernels: TestKernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
});

async function start(): Promise<TestKernel> {
  const k = await startCapabilityKernel();
  kernels.push(k);
  return k;
}

describe('a net grant at registration', () => {
  it.each(['api.github.com@127.0.0.16:4000', '2130706433', '0x7f.1', 'https://api.github.com', 'api.github.com/repos'])(
    'refuses %s before anyone is asked: it reads as one host and grants another, or is not a host',
    async (entry) => {
      const k = await start();
      const asked: ConfirmationRequest[] = [];
      const result = await k.apply('register_capability', { ...SLUGIFY, grants: { net: [entry] } }, { confirm: { confirm: async (r) => (asked.push(r), true) } });
      if (result.ok) throw new Error(`admitted with net grant ${entry}`);
      expect(result.envelope).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.grants.net[0]', received_value: entry });
      expect(asked).toEqual([]);
      expect(new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader)).names()).toEqual([]);
    },
  );

  it('asks about the normalised host, and stores exactly that', async () => {
    const k = await start();
    const asked: string[] = [];
    const result = await k.apply('register_capability', { ...SLUGIFY, grants: { net: ['API.Example.COM', 'bücher.example:8443'] } }, { confirm: { confirm: async (r) => (asked.push(r.reason), true) } });
    expect(result.ok ? 'ok' : result.envelope).toBe('ok');
    expect(asked).toEqual(['register_capability adds a new capability "slugify" that may net:api.example.com, net:xn--bcher-kva.example:8443']);
    expect(new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader)).current('slugify')?.grants).toEqual({ net: ['api.example.com', 'xn--bcher-kva.example:8443'] });
    // The same hosts in another spelling ask for nothing new.
    expect(await k.apply('register_capability', { ...SLUGIFY, description: 'v2', grants: { net: ['api.example.com', 'BÜCHER.example:8443'] } })).toMatchObject({ ok: true });
  });
});
