import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the root entry', () => {
  it('bundles for a browser: no ws, no node: module', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      conditions: ['@nodwyn/source'],
      write: false,
      logLevel: 'silent',
      metafile: true,
    });

    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('node_modules/ws/'))).toBe(false);
    expect(inputs.some((input) => input.startsWith('node:'))).toBe(false);
    expect(inputs.some((input) => input.includes('@agentclientprotocol/sdk'))).toBe(true);
  });
});
