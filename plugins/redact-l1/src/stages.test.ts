import { EnvelopeError, type GuardCall, type TaintTracker } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './redactor.js';
import { ingressStage, logStage } from './stages.js';

const TOKEN = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';
const call = { id: 'c1', session: 's1', name: 'read_file' } as GuardCall;

/** A taint layer that records what it was told, for the assertions. */
function recordingTracker() {
  const remembered: { session: string; value: string; tags: readonly string[] }[] = [];
  const tracker: TaintTracker = { remember: (session, value, tags) => remembered.push({ session, value, tags }), tagsOf: () => [], matches: () => [] };
  return { tracker, remembered };
}

describe('ingress stage', () => {
  it('redacts the content, merges the classes into the taint (sorted, unique) and keeps data', async () => {
    const stage = ingressStage(createRedactor(), () => undefined);
    const result = await stage.filter(call, { content: `t=${TOKEN}\nDB_PASSWORD=Sup3r$ecret!`, data: { raw: true }, taint: ['keychain', 'github-token'] });
    expect(result).toEqual({ content: 't=[REDACTED github-token]\nDB_PASSWORD=[REDACTED generic-password]', data: { raw: true }, taint: ['generic-password', 'github-token', 'keychain'] });
  });

  it('hands each original value, and its decoded form, to the taint layer', async () => {
    const { tracker, remembered } = recordingTracker();
    const basic = Buffer.from('ci:W1nter2025!x').toString('base64');
    await ingressStage(createRedactor(), () => tracker).filter(call, { content: `${TOKEN} Authorization: Basic ${basic}` });
    expect(remembered).toEqual([
      { session: 's1', value: TOKEN, tags: ['github-token'] },
      { session: 's1', value: basic, tags: ['basic-auth'] },
      { session: 's1', value: 'W1nter2025!x', tags: ['basic-auth'] },
    ]);
  });

  it('remembers a private key read with line numbers line by line, without the gutter or the armour', async () => {
    const { tracker, remembered } = recordingTracker();
    const body = ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQ', 'AAAAIBrbmpxaW5uZXJzZWNyZXRrZXlieXRlc2hlcmVhcmVub3RyZWFsAAAAAAAAAAAAAAAA'];
    const numbered = ['-----BEGIN OPENSSH PRIVATE KEY-----', ...body, '-----END OPENSSH PRIVATE KEY-----'].map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n');
    await ingressStage(createRedactor(), () => tracker).filter(call, { content: numbered });
    const values = remembered.map((r) => r.value);
    expect(values).toEqual(expect.arrayContaining(body));
    for (const value of values) expect(value).not.toMatch(/\t|-----BEGIN|-----END/);
  });

  it('returns a result without secrets as it came', async () => {
    const result = { content: 'nothing to see' };
    expect(await ingressStage(createRedactor(), () => undefined).filter(call, result)).toBe(result);
  });

  it('throws instead of passing the text on when the detector fails', () => {
    const broken = createRedactor(() => {
      throw new Error('bug');
    });
    expect(() => ingressStage(broken, () => undefined).filter(call, { content: TOKEN })).toThrow(EnvelopeError);
  });
});

describe('log stage', () => {
  it('redacts every string of the payload and leaves clean events untouched', () => {
    const stage = logStage(createRedactor());
    const draft = { session: 's', type: 'tool.denied', actor: 'kernel', payload: { envelope: { received_value: `{"token":"${TOKEN}"}` }, n: 1 } };
    expect(stage.filter(draft).payload).toEqual({ envelope: { received_value: '{"token":"[REDACTED github-token]"}' }, n: 1 });
    const clean = { ...draft, payload: { text: 'hello' } };
    expect(stage.filter(clean)).toBe(clean);
  });

  it("hands what it redacts in the person's prompt to the taint layer, and nothing of the model's", () => {
    const { tracker, remembered } = recordingTracker();
    const stage = logStage(createRedactor(), () => tracker);
    stage.filter({ session: 's', type: 'message.user', actor: 'user', payload: { text: `my token is ${TOKEN}` } });
    const model = stage.filter({ session: 's', type: 'message.assistant', actor: 'model', payload: { text: 'ghp_7fK2pQ9xLm3ZvT8wR1nB4yH6cJ0dE5sA2gUi' } });
    expect(model.payload.text).toBe('[REDACTED github-token]');
    expect(remembered).toEqual([{ session: 's', value: TOKEN, tags: ['github-token'] }]);
  });

  it('throws when the detector fails, so the kernel refuses the write', () => {
    const broken = createRedactor(() => {
      throw new Error('bug');
    });
    expect(() => logStage(broken).filter({ session: 's', type: 'message.user', actor: 'user', payload: { text: TOKEN } })).toThrow(EnvelopeError);
  });
});

