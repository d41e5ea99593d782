import type { CliCommand, ConfirmationRequest } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { admissionProof, Registry } from '../src/index.js';
import { SLUGIFY, startCapabilityKernel } from './kernel.js';

const kernels: TestKernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
});

async function start(capabilities?: Record<string, unknown>): Promise<TestKernel> {
  const k = await startCapabilityKernel({ capabilities });
  kernels.push(k);
  return k;
}

async function person(k: TestKernel, args: string[], options: Record<string, unknown> = {}): Promise<void> {
  const command = k.kernel.commands.get('capability').item as CliCommand;
  const code = await command.run({ args, options, io: { stdin: Readable.from([]), write: () => undefined, error: () => undefined, interactive: false } });
  expect(code).toBe(0);
}

function status(k: TestKernel): string | undefined {
  return new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader)).head('slugify')?.status;
}

describe('a capability a person stopped', () => {
  for (const action of ['rm', 'disable'] as const) {
    it(`stays stopped after \`capability ${action}\` when the model registers the same code and grants again without a person`, async () => {
      const k = await start();
      expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
      await person(k, [action, 'slugify']);
      const again = await k.apply('register_capability', SLUGIFY);
      if (again.ok) throw new Error(`re-registered without a person: ${again.content}`);
      expect(again.envelope).toMatchObject({ category: 'CONFIRMATION_REQUIRED', code: 'CAPABILITY_STOPPED', plugin: '@nodwyn/plugin-capabilities' });
      expect(again.envelope.remediation).toContain(`A person ${action === 'rm' ? 'removed' : 'disabled'} capability slugify (version 2)`);
      expect(again.envelope.remediation).toContain('`nodwyn capability rollback slugify --to 1`');
      expect(status(k)).toBe(action === 'rm' ? 'removed' : 'disabled');
      expect((await k.apply('slugify', { text: 'A b' })).ok).toBe(false);
    });
  }

  it('is not brought back by a blanket --yes, nor under confirm = "never"; a person answering yes brings it back', async () => {
    const k = await start({ confirm: 'never' });
    expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
    await person(k, ['rm', 'slugify']);
    const blanket = await k.apply('register_capability', SLUGIFY, { confirm: { blanket: true, confirm: async () => true } });
    expect(blanket).toMatchObject({ ok: false, envelope: { code: 'CAPABILITY_STOPPED' } });
    expect(status(k)).toBe('removed');
    const asked: ConfirmationRequest[] = [];
    const confirmed = await k.apply('register_capability', SLUGIFY, { confirm: { confirm: async (request) => (asked.push(request), true) } });
    expect(confirmed.ok ? 'ok' : confirmed.envelope).toBe('ok');
    expect(asked.map((r) => [r.reason, r.security])).toEqual([['register_capability brings back capability "slugify", which a person removed (version 2)', true]]);
    expect(status(k)).toBe('active');
    expect(await k.apply('slugify', { text: 'A b' })).toMatchObject({ ok: true, content: 'a-b' });
  });

  it('registers freely again once the person rolled it back to an active version', async () => {
    const k = await start();
    expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
    await person(k, ['disable', 'slugify']);
    await person(k, ['rollback', 'slugify'], { to: '1' });
    expect(status(k)).toBe('active');
    const next = await k.apply('register_capability', { ...SLUGIFY, description: 'Slugs, version 4.' });
    expect(next.ok ? 'ok' : next.envelope).toBe('ok');
  });
});
