import { describePrimitivePluginConformance, startTestKernel } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { openapiPlugin } from './index.js';

describePrimitivePluginConformance(openapiPlugin);

describe('openapi', () => {
  it('counts words through the guard', async () => {
    const t = await startTestKernel({ plugins: [openapiPlugin] });
    try {
      expect(await t.apply('openapi', { text: ' one two\tthree\n' })).toMatchObject({ ok: true, content: '3' });
    } finally {
      await t.stop();
    }
  });
});
