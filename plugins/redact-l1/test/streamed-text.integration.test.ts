import type { FrontendEvent, ModelProvider } from '@nodwyn/plugin-api';
import { startTestKernel, toolLoop, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { redactL1Plugin } from '../src/index.js';
import { redact } from '../src/redactor.js';
import { generateCorpus } from './corpus/generate.js';
import { Rng } from './corpus/prng.js';

const GITHUB = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';
/** The shape of an OpenAI project key: `sk-proj-`, base64url, "OpenAI" in base64 in the middle. */
const OPENAI = `sk-proj-${'Xa9Lm2Qp7Rt4Vw8Yz1Bc5Df3Gh6Jk0Nn'.repeat(2)}T3BlbkFJ${'Pq4Rs8Tu2Vw6Xy0Za3Bc7De1Fg5Hi9Jk'.repeat(2)}`;
const BEARER = '9fK2mQ7xL4pW8zR1vT6yN3bH5cJ0dG';
const PASSWORD = 'Sup3r$ecret!9x';

let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/**
 * A model that streams `deltas` one text event each and notes, as it is about to send each one, what the
 * front end had been shown so far: the kernel handles a delta before asking for the next.
 */
function streamingModel(deltas: readonly string[], shownSoFar: () => string): ModelProvider & { readonly before: string[] } {
  const before: string[] = [];
  return {
    id: 'streaming',
    before,
    async *stream() {
      for (const text of deltas) {
        before.push(shownSoFar());
        yield { type: 'text', text };
      }
      yield { type: 'stop', reason: 'end_turn' };
    },
  };
}

/** Runs one turn whose model streams `deltas`; the `delta.text` events a front end received. */
async function streamed(deltas: readonly string[]) {
  running ??= await startTestKernel({ plugins: [redactL1Plugin] });
  const shown: string[] = [];
  const model = streamingModel(deltas, () => shown.join(''));
  const onEvent = (event: FrontendEvent) => void (event.type === 'delta.text' && shown.push(event.text));
  const result = await running.kernel.run({ session: running.session(), prompt: 'go', provider: model, strategy: toolLoop, onEvent });
  return { shown, before: model.before, result };
}

/** `secret` cut into three pieces of about equal length. */
function thirds(secret: string): [string, string, string] {
  const a = Math.floor(secret.length / 3);
  return [secret.slice(0, a), secret.slice(a, 2 * a), secret.slice(2 * a)];
}

describe('streamed text through the real L1 layer', () => {
  const cases: { name: string; lead: string; secret: string; tail: string }[] = [
    { name: 'a GitHub token in a sentence', lead: 'Here is the token you asked for: ', secret: GITHUB, tail: ' and keep it safe.' },
    { name: 'an OpenAI project key in a shell line', lead: 'Run this first: export OPENAI_API_KEY=', secret: OPENAI, tail: ' then start the server.' },
    { name: 'a bearer token in a header', lead: 'curl -H "Authorization: Bearer ', secret: BEARER, tail: '" https://api.example.com/v1/items' },
    { name: 'a password named in prose', lead: 'The database password is ', secret: PASSWORD, tail: ', rotate it soon.' },
  ];

  for (const { name, lead, secret, tail } of cases) {
    it(`${name}, split across three deltas: no delta shows any of it, and the words before it stream at once`, async () => {
      const [first, second, third] = thirds(secret);
      const { shown, before, result } = await streamed([`${lead}${first}`, second, `${third}${tail}`]);
      expect(result.reason).toBe('answer');
      const all = shown.join('');
      for (let i = 0; i + 6 <= secret.length; i++) {
        const window = secret.slice(i, i + 6);
        for (const text of [...shown, all]) expect(text).not.toContain(window);
      }
      expect(all).toContain('[REDACTED ');
      expect(all).toBe(redact(`${lead}${secret}${tail}`).text);
      // Before the secret's last piece was sent, everything up to the secret's own token was already shown.
      const lastToken = lead.slice(lead.search(/\S*$/));
      expect(before[2]).toBe(lead.slice(0, lead.length - lastToken.length));
      expect(before[2]!.length).toBeGreaterThan(0);
    });
  }

  it('keeps a private key whole until its END line, then shows only the placeholder', async () => {
    const body = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n'.repeat(4);
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}-----END RSA PRIVATE KEY-----`;
    const { shown } = await streamed(['Your key:\n', pem.slice(0, 40), pem.slice(40, 150), pem.slice(150), '\nDone.']);
    expect(shown.join('')).toBe('Your key:\n[REDACTED private-key]\nDone.');
    expect(shown.join('')).not.toContain('MIIEow');
  });
});

describe('streamed text through the real L1 layer, over its test corpus', () => {
  it('shows every class in every context and hiding place as L1 shows the whole text, split anywhere inside the secret', async () => {
    const r = new Rng(11);
    const { positives } = generateCorpus(20250302, { perContext: 1, perPlace: 1, perNegative: 0 });
    // A Kubernetes manifest that names its kind after its data is the one case decided beyond the line.
    const decidedOnItsLine = positives.filter((p) => !/kind: Secret|"kind\\?": ?\\?"Secret/.test(p.text.slice(p.end)));
    expect(decidedOnItsLine.length).toBeGreaterThan(400);
    for (const p of decidedOnItsLine) {
      const whole = redact(p.text).text;
      const secret = p.text.slice(p.start, p.end);
      if (whole.includes(secret)) continue;
      const cuts = [p.start + r.int(p.end - p.start), p.start + r.int(p.end - p.start), r.int(p.text.length)].sort((a, b) => a - b);
      const deltas = [0, ...cuts].map((from, i) => p.text.slice(from, [...cuts, p.text.length][i])).filter((d) => d !== '');
      const { shown } = await streamed(deltas);
      const all = shown.join('');
      const label = `${p.class} in ${p.place}, cut at ${cuts.join(',')}`;
      // Inside a manifest the placeholder's class comes from `kind: Secret` lines away; the rest is exact.
      if (p.place === 'kubernetes' || p.class === 'kubernetes-secret') expect(all.replaceAll(/\[REDACTED [a-z-]+\]/g, '[R]'), label).toBe(whole.replaceAll(/\[REDACTED [a-z-]+\]/g, '[R]'));
      else expect(all, label).toBe(whole);
    }
  }, 60_000);
});
