import { describe, expect, it } from 'vitest';
import { startTestKernel } from '@nodwyn/testing';
import hello from '../src/hello.js';

describe('the skeleton of section 2', () => {
  it('is started by the real host, its omitted manifest fields filled in empty', async () => {
    expect(hello.manifest).toMatchObject({ name: '@acme/nodwyn-plugin-hello', provides: [], requires: [], permissions: [] });
    const t = await startTestKernel({ plugins: [hello] });
    try {
      expect(t.host.report().find((row) => row.name === '@acme/nodwyn-plugin-hello')).toMatchObject({ state: 'started', provides: [] });
    } finally {
      await t.stop();
    }
  });
});
