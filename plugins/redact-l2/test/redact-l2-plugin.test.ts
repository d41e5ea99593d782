import { TaintToken, z, type TaintTracker } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { redactL2Plugin } from '../src/index.js';

const VALUE = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';

describe('the redact-l2 plugin', () => {
  it('withholds a result that carries a remembered value, and passes call taint on', async () => {
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
      // A result that holds a remembered value (here base64-encoded) is withheld as a whole, for the model and
      // for sandboxed code alike: showing it redacted, or tainting what follows, would say which part matched.
      for (const origin of ['model', 'host'] as const) {
        const shown = await t.apply('echo_b64', { text: `token: ${VALUE}` }, { session, origin });
        expect(!shown.ok && shown.envelope.code).toBe('SECURITY_OUTPUT_WITHHELD');
      }
      expect(t.events(session).filter((e) => e.type === 'security.withheld').map((e) => e.payload)).toEqual([
        { source: 'tool', call_id: expect.any(String), name: 'echo_b64', classes: ['github-token'] },
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
