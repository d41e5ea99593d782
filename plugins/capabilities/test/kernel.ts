import { egressPlugin } from '@nodwyn/plugin-egress';
import { keychainPlugin } from '@nodwyn/plugin-keychain';
import { loopDefaultPlugin } from '@nodwyn/plugin-loop-default';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { sandboxQuickjsPlugin } from '@nodwyn/plugin-sandbox-quickjs';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '@nodwyn/testing';
import { capabilitiesPlugin } from '../src/index.js';

/** The real kernel with the plugins a capability run meets in `nodwyn run`: tools, text layers, egress, QuickJS. */
export function startCapabilityKernel(options: Omit<TestKernelOptions, 'plugins'> & { capabilities?: Record<string, unknown> } = {}): Promise<TestKernel> {
  const { capabilities, ...rest } = options;
  const plugins = { ...((rest.settings?.plugins as Record<string, unknown>) ?? {}), ...(capabilities ? { [capabilitiesPlugin.manifest.name]: capabilities } : {}) };
  return startTestKernel({
    ...rest,
    settings: { ...rest.settings, plugins },
    plugins: [toolsCorePlugin, keychainPlugin, redactL1Plugin, redactL2Plugin, egressPlugin, sandboxQuickjsPlugin, loopDefaultPlugin, capabilitiesPlugin],
  });
}

/** A capability that turns text into a URL slug, with two examples (one exact, one predicate). */
export const SLUGIFY = {
  name: 'slugify',
  description: 'Turns text into a lowercase URL slug.',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  code: [
    'interface Args { text: string }',
    'export default (args: Args): string =>',
    "  args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');",
  ].join('\n'),
  examples: [
    { args: { text: 'Hello, World!' }, expect: 'hello-world' },
    { args: { text: '  Many   spaces  ' }, check: '(out: string) => !out.includes(" ")' },
  ],
};

/** Version 2 of slugify: joins with underscores. */
export const SLUGIFY_V2 = {
  ...SLUGIFY,
  description: 'Turns text into a lowercase slug joined with underscores.',
  code: "export default (args: { text: string }) => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');",
  examples: [{ args: { text: 'Hello, World!' }, expect: 'hello_world' }],
};
