import { describePrimitivePluginConformance, startTestKernel } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { mcpPlugin } from './index.js';

describePrimitivePluginConformance(mcpPlugin);

describe('mcp', () => {
  it('counts words through the guard', async () => {
    const t = await startTestKernel({ plugins: [mcpPlugin] });
    try {
      expect(await t.apply('mcp', { text: ' one two\tthree\n' })).toMatchObject({ ok: true, content: '3' });
    } finally {
      await t.stop();
    }
  });
});
