import type { CliCommand } from '@nodwyn/plugin-api';
import { describeAgentCommandConformance, type TestKernel } from '@nodwyn/testing';
import { egressPlugin } from '@nodwyn/plugin-egress';
import { keychainPlugin } from '@nodwyn/plugin-keychain';
import { sandboxQuickjsPlugin } from '@nodwyn/plugin-sandbox-quickjs';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesPlugin } from '../src/index.js';
import { SLUGIFY, SLUGIFY_V2, startCapabilityKernel } from './kernel.js';

describeAgentCommandConformance(capabilitiesPlugin, { with: [toolsCorePlugin, keychainPlugin, egressPlugin, sandboxQuickjsPlugin] });

const kernels: TestKernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
});

async function capabilities(k: TestKernel, input = ''): Promise<string> {
  const entry = k.host.agentCommands().find((c) => c.command.name === 'capabilities')!;
  expect(entry.owner).toBe(capabilitiesPlugin.manifest.name);
  return entry.command.run({ session: k.session(), input, signal: new AbortController().signal });
}

describe('/capabilities', () => {
  it('says none are registered, then lists each with its current version, runner and state', async () => {
    const k = await startCapabilityKernel();
    kernels.push(k);
    expect(await capabilities(k)).toMatch(/^No capabilities are registered/);
    expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
    expect((await k.apply('register_capability', SLUGIFY_V2)).ok).toBe(true);
    expect((await k.apply('register_capability', { ...SLUGIFY, name: 'kebab' })).ok).toBe(true);
    const listed = await capabilities(k);
    expect(listed.split('\n').slice(0, 3)).toEqual([
      '2 capabilities, 2 active:',
      '- kebab v1 (quickjs, active): Turns text into a lowercase URL slug.',
      '- slugify v2 (quickjs, active): Turns text into a lowercase slug joined with underscores.',
    ]);

    const command = k.kernel.commands.get('capability').item as CliCommand;
    const io = { stdin: Readable.from([]), write: () => undefined, error: () => undefined, interactive: false };
    expect(await command.run({ args: ['disable', 'kebab'], options: {}, io })).toBe(0);
    expect(await capabilities(k, 'KEB')).toBe(
      ['2 capabilities, 1 active:', '- kebab v2 (quickjs, disabled): Turns text into a lowercase URL slug.', 'Manage them in a terminal: `nodwyn capability show|history|rollback|disable|rm NAME`.'].join('\n'),
    );
    expect(await capabilities(k, 'nothing-like-it')).toBe('No capability name contains "nothing-like-it" (2 registered; /capabilities lists them all).');
  });
});
