import { TaintToken, z, type TaintTracker } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { redactL2Plugin } from '../src/index.js';

const VALUE = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';

describe('the redact-l2 plugin', () => {
  it('tags a result that carries a remembered value (here base64-encoded) and passes call taint on', async () => {
    let tracker: TaintTracker | undefined;
    const tools = testPlugin('echo-tools', ['primitive:echo_b64'], (ctx) => {
      tracker = ctx.services.get(TaintToken);
      ctx.primitives.register({
        name: 'echo_b64',
        description: 'Echoes its text base64-encoded.',
        input: z.object({ text: z.string() }),
        tier: 'read',
        visibility: 'model',
        handler: (args) => ({ content: Buffer.from(args.text).toString('base64') }),
      });
    }, { requires: ['service:taint'] });
    const t = await startTestKernel({ plugins: [redactL2Plugin, tools] });
    try {
      const session = t.session();
      tracker!.remember(session, VALUE, ['github-token']);
      const result = await t.apply('echo_b64', { text: `token: ${VALUE}` }, { session, origin: 'host' });
      expect(result.ok && result.taint).toEqual(['github-token']);
      // The same result for the model is withheld as a whole: showing it redacted would show which part matched.
      const shown = await t.apply('echo_b64', { text: `token: ${VALUE}` }, { session });
      expect(!shown.ok && shown.envelope.code).toBe('SECURITY_OUTPUT_WITHHELD');
      expect(t.events(session).filter((e) => e.type === 'security.withheld').map((e) => e.payload)).toEqual([
        { source: 'tool', call_id: expect.any(String), name: 'echo_b64', classes: ['github-token'] },
      ]);
      const plain = await t.apply('echo_b64', { text: 'nothing secret here' }, { session, origin: 'host' });
      expect(plain.ok && plain.taint).toEqual([]);
      const inherited = await t.kernel.apply({ session, name: 'echo_b64', args: { text: 'x' }, origin: 'host', taint: ['sandbox-run'] });
      expect(inherited.ok && inherited.taint).toEqual(['sandbox-run']);
    } finally {
      await t.stop();
    }
  });
});
