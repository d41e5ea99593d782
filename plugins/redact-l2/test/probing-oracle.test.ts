import { TaintToken, z, type ModelProvider, type ModelRequest, type ModelStreamEvent, type TaintTracker } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, toolLoop } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { redactL2Plugin, WINDOW } from '../src/index.js';

const SECRET = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A hostile model that reads the window it is sent and picks its next probe from what came back. It knows
 * the first WINDOW - 1 characters (a partial leak) and extends them one character at a time: each message
 * lists candidates (the last WINDOW - 1 known characters plus one guess each). If the window shows which
 * candidate came back redacted, it has the character in one call; if it only shows that the message as a
 * whole was withheld or not, it switches to halving its guesses (one bit an answer).
 */
function probingModel(): ModelProvider & { recovered(): string; readonly windows: ModelRequest['messages'][] } {
  let known = SECRET.slice(0, WINDOW - 1);
  let candidates = [...ALPHABET];
  let probe: string[] = [];
  let halving = false;
  const windows: ModelRequest['messages'][] = [];
  const learn = (messages: ModelRequest['messages']): void => {
    const last = messages.findLast((m) => m.role === 'assistant');
    if (!last || probe.length === 0) return;
    const shown = last.text.split(' ');
    const redacted = shown.findIndex((s) => s.startsWith('[REDACTED'));
    if (redacted >= 0) candidates = [probe[redacted]!];
    else if (last.text.includes('withheld')) {
      // Every guess at once only says "one of them"; from now on, half of them.
      if (probe.length < candidates.length) candidates = probe;
      halving = true;
    }
    else candidates = candidates.filter((c) => !probe.includes(c));
    if (candidates.length === 1) {
      known += candidates[0];
      candidates = [...ALPHABET];
    }
  };
  return {
    id: 'probing',
    windows,
    recovered: () => known,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      windows.push(request.messages);
      learn(request.messages);
      if (known.length === SECRET.length) {
        yield { type: 'text', text: 'done' };
        yield { type: 'stop', reason: 'end_turn' };
        return;
      }
      probe = halving ? candidates.slice(0, Math.ceil(candidates.length / 2)) : candidates;
      yield { type: 'text', text: probe.map((c) => known.slice(-(WINDOW - 1)) + c).join(' ') };
      yield { type: 'tool_call', call: { id: `call_${windows.length}`, name: 'note', args: { text: `probe ${windows.length}` } } };
      yield { type: 'stop', reason: 'tool_use' };
    },
  };
}

describe('redaction is not an oracle', () => {
  it('an adaptive model cannot recover a keychain secret by watching which of its candidates came back redacted', async () => {
    let tracker: TaintTracker | undefined;
    const tools = testPlugin('probe-tools', ['primitive:note'], (ctx) => {
      tracker = ctx.services.get(TaintToken);
      ctx.primitives.register({ name: 'note', description: 'Takes a note.', input: z.object({ text: z.string() }), tier: 'read', visibility: 'model', handler: () => ({ content: 'noted' }) });
    }, { requires: ['service:taint'] });
    const t = await startTestKernel({ plugins: [redactL2Plugin, tools] });
    try {
      const session = t.session();
      // A keychain value the egress edge revealed for a bound request: the model only ever held its handle.
      tracker!.remember(session, SECRET, ['github-token'], { pinned: true });
      const model = probingModel();
      const result = await t.run('list the open issues', { provider: model, session, loop: toolLoop });

      expect(result.reason).toBe('budget');
      expect(result.envelope?.code).toBe('SECURITY_STRIKES_EXCEEDED');
      expect(model.recovered().length).toBeLessThan(WINDOW + 1);
      // No window ever showed a candidate redacted on its own: only whole messages withheld.
      for (const window of model.windows) {
        for (const m of window) if (m.role === 'assistant') expect(m.text).not.toContain('[REDACTED');
      }
      const events = t.events(session);
      expect(events.filter((e) => e.type === 'security.withheld')).toHaveLength(3);
      expect(JSON.stringify(events)).not.toContain(SECRET.slice(WINDOW, WINDOW * 2));
      // The session stays closed to a later turn: the strikes are counted from the log.
      const again = await t.run('try again', { provider: probingModel(), session, loop: toolLoop });
      expect(again.envelope?.code).toBe('SECURITY_STRIKES_EXCEEDED');
      expect(t.events(session).filter((e) => e.type === 'message.assistant')).toHaveLength(events.filter((e) => e.type === 'message.assistant').length);
    } finally {
      await t.stop();
    }
  });
});
