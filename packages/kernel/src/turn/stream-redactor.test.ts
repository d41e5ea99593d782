import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamRedactor } from './stream-redactor.js';

/**
 * A deterministic stand-in for L1, with its shapes: vendor tokens by prefix, length and alphabet, standing
 * alone (`ghp_…`, `sk-proj-…`, `AKIA…`); a value after a keyword and separator (`password = …`,
 * `"api_key": "…"`, `Bearer …`), only the value hidden; and whole private-key blocks.
 */
const SECRETS = new RegExp(
  [
    String.raw`-----BEGIN (?<armour>[A-Z ]*PRIVATE KEY)-----[\s\S]*?-----END \k<armour>-----`,
    String.raw`(?<![A-Za-z0-9])(?<token>sk-proj-[A-Za-z0-9_-]{40,}|ghp_[A-Za-z0-9]{36,251}|AKIA[A-Z2-7]{16})(?![A-Za-z0-9_-])`,
    String.raw`(?<key>(?:[Pp]assword|PASSWORD|api_key|API_KEY|secret)["']?[ \t]*[:=][ \t]*["']?|Bearer[ \t]+)(?<value>[^\s"'[][^\s"']{5,})`,
  ].join('|'),
  'g',
);
const CLASSES: Record<string, string> = { 'sk-': 'openai-key', ghp: 'github-token', AKI: 'aws-access-key' };

function redact(text: string): string {
  return text.replace(SECRETS, (...args) => {
    const { token, key } = args.at(-1) as Record<string, string | undefined>;
    if (token !== undefined) return `[REDACTED ${CLASSES[token.slice(0, 3)]}]`;
    if (key !== undefined) return `${key}[REDACTED generic-secret]`;
    return '[REDACTED private-key]';
  });
}

/** What each push (and the flush) returned, the empty ones left out. */
function play(deltas: readonly string[], layer: (text: string) => string = redact): string[] {
  const r = new StreamRedactor(layer);
  const out = deltas.map((d) => r.push(d));
  out.push(r.flush());
  return out.filter((s) => s !== '');
}

/** `text` cut at each of `points`. */
function split(text: string, points: readonly number[]): string[] {
  const cuts = [...new Set([0, ...points.filter((p) => p > 0 && p < text.length), text.length])].sort((a, b) => a - b);
  return cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
}

/** Every `n`-character window of `secret`. */
function windows(secret: string, n: number): string[] {
  return Array.from({ length: secret.length - n + 1 }, (_, i) => secret.slice(i, i + n));
}

const GITHUB = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';
const OPENAI = `sk-proj-${'Zq7Hk2mW9pX4vB8nR3tY6uJ1cF5dL0sA'.repeat(2)}`;
const AWS = 'AKIAZ7QWJ5HGK2XL3MNB';
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n'.repeat(3)}-----END RSA PRIVATE KEY-----`;

describe('the streaming redactor holds back only what could be a secret', () => {
  it('lets out everything but the trailing run of token characters, at once', () => {
    const r = new StreamRedactor(redact);
    expect(r.push('Hello wor')).toBe('Hello ');
    expect(r.push('ld, and')).toBe('world, ');
    expect(r.push(' more\n')).toBe('and more\n');
    expect(r.push('end')).toBe('');
    expect(r.flush()).toBe('end');
  });

  it('lets a run of token characters out at 4096, so nothing is held unboundedly, and loses no text', () => {
    const r = new StreamRedactor((text) => text);
    const run = 'x'.repeat(4095);
    expect(r.push(run)).toBe('');
    expect(r.push('yz')).toBe(`${run}yz`);
    expect(r.push('tail')).toBe('');
    expect(r.flush()).toBe('tail');
  });

  it('holds a PEM block until its END line, whatever the spaces inside it', () => {
    const r = new StreamRedactor(redact);
    expect(r.push(`before ${PEM.slice(0, 15)}`)).toBe('before ');
    expect(r.push(PEM.slice(15, -10))).toBe('');
    expect(r.push(PEM.slice(-10))).toBe('');
    expect(r.push('\nafter words')).toBe('[REDACTED private-key]\nafter ');
    expect(r.flush()).toBe('words');
  });

  it('holds a PuTTY key until its Private-MAC line has ended', () => {
    const seen: string[] = [];
    const r = new StreamRedactor((text) => (seen.push(text), text.replace(/PuTTY-User-Key-File-[\s\S]*Private-MAC: [0-9a-f]+/, '[REDACTED private-key]')));
    expect(r.push('key: PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIBxYz\nPrivate-MAC: 5f0e')).toBe('key: ');
    expect(r.push('9a\nok ')).toBe('[REDACTED private-key]\nok ');
    expect(seen.filter((t) => t.includes('AAAAIBxYz') && !t.includes('Private-MAC'))).toEqual([]);
  });
});

describe('the streaming redactor never shows a secret split across deltas', () => {
  const cases: [string, string][] = [
    ['a GitHub token', `Your token is ${GITHUB}, keep it safe.\nNext line`],
    ['an OpenAI project key', `export OPENAI_API_KEY=${OPENAI} && run`],
    ['an AWS key id in a sentence', `The id (${AWS}) is old.`],
    ['a keyword value', 'Set password = hunter2-xyz before you start.'],
    ['a JSON api_key', '{ "name": "svc", "api_key": "Qm9ndXMtdmFsdWUtOTk5" }'],
    ['a bearer token', 'curl -H "Authorization: Bearer abcDEF123ghiJKL456mno" https://x'],
    ['a PEM block', `key:\n${PEM}\ndone`],
  ];

  for (const [name, text] of cases) {
    it(`${name}: in one-character deltas and in three pieces cut anywhere`, () => {
      const whole = redact(text);
      expect(play([...text]).join('')).toBe(whole);
      for (let a = 1; a < text.length; a += 3) {
        for (let b = a + 1; b < text.length; b += 5) expect(play(split(text, [a, b])).join('')).toBe(whole);
      }
    });
  }

  it('shows the words before a secret before the secret has fully arrived', () => {
    const r = new StreamRedactor(redact);
    expect(r.push('Your token is ghp_R8x2')).toBe('Your token is ');
    expect(r.push('KqLm9ZtV4nWp7YbC3dF')).toBe('');
    expect(r.push('h6JsA1uEo0GiQ now')).toBe('[REDACTED github-token] ');
  });

  it('redacts a value whose keyword was shown long before, in the same line', () => {
    const r = new StreamRedactor(redact);
    expect(r.push('password = ')).toBe('password = ');
    expect(r.push('hunter2-x')).toBe('');
    expect(r.push('yz ok')).toBe('[REDACTED generic-secret] ');
  });

  it('hides the rest of a secret longer than a held run, named by a keyword before it', () => {
    const value = 'Q7'.repeat(2600);
    const shown = play(['password = ', value.slice(0, 4100), value.slice(4100), ' end']);
    expect(shown).toEqual(['password = ', '[REDACTED generic-secret]', ' ', 'end']);
  });

  it('shows the placeholder, never the rest, when a match spans text already shown (a two-word secret)', () => {
    const phrase = (text: string) => text.replaceAll(/correct horse battery/g, '[REDACTED remembered]');
    const shown = play(['it is correct ', 'horse ', 'battery staple'], phrase);
    expect(shown).toEqual(['it is correct ', 'horse ', '[REDACTED remembered] ', 'staple']);
    expect(shown.join('')).not.toContain('battery');
  });

  it('restarts at a whole placeholder when later text changes the class of one already shown', () => {
    const layer = (text: string) => text.replace(/(?<=password: )\S+/, text.includes('kind: Secret') ? '[REDACTED kubernetes-secret]' : '[REDACTED generic-password]');
    const shown = play(['data: password: Q29mZmVl', 'OTMh kind: Sec', 'ret end'], layer);
    expect(shown).toEqual(['data: password: ', '[REDACTED generic-password] kind: ', '[REDACTED kubernetes-secret] kind: Secret ', 'end']);
  });

  it('fails closed: when the text layers throw, nothing of the piece is shown', () => {
    const r = new StreamRedactor(() => {
      throw new Error('layer bug');
    });
    expect(r.push('held')).toBe('');
    expect(() => r.push(' next')).toThrow('layer bug');
    expect(() => r.flush()).toThrow('layer bug');
  });
});

/** Prose, separators and secrets, as a model might stream them. */
const PROSE = fc.constantFrom('the', 'key', 'is', 'here', 'and', 'run', 'with', 'value', 'ok.', '(see', 'it)', 'x=1', '"name":', '->', 'a,b');
const SEPARATOR = fc.constantFrom(' ', ' ', ' ', '\n', '  ', '\t', '\n\n', ', ');
/** Letters of secret bodies: none of REDACTED's, so a window of a secret can never be read in a placeholder. */
const BODY = 'BFGHJKLMNPQSUVWXYZ234567';
const body = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...BODY), minLength: min, maxLength: max });
/** The quote that closes a value `key` opened, if any. */
const closing = (key: string) => (key.endsWith('"') || key.endsWith("'") ? key.at(-1)! : '');
/** A secret as it appears in the text, and the part of it that `redact` hides. */
const SECRET = fc.oneof(
  body(36, 60).map((b) => ({ text: `ghp_${b}`, hidden: `ghp_${b}` })),
  body(40, 120).map((b) => ({ text: `sk-proj-${b}`, hidden: `sk-proj-${b}` })),
  body(16, 16).map((b) => ({ text: `AKIA${b}`, hidden: `AKIA${b}` })),
  fc.tuple(fc.constantFrom('password = ', 'PASSWORD=', '"api_key": "', "secret: '", 'Bearer '), body(8, 30)).map(([key, v]) => ({ text: `${key}${v}${closing(key)}`, hidden: v })),
  fc.array(body(40, 64), { minLength: 2, maxLength: 4 }).map((lines) => {
    const block = `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----`;
    return { text: block, hidden: lines.join('\n') };
  }),
);
const TEXT = fc
  .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: PROSE.map((text) => ({ text, hidden: '' })) }, { weight: 1, arbitrary: SECRET }), SEPARATOR), { minLength: 1, maxLength: 14 })
  .map((parts) => ({ text: parts.map(([p, s]) => p.text + s).join(''), hidden: parts.map(([p]) => p.hidden).filter((h) => h !== '') }));
const CUTS = fc.array(fc.nat({ max: 2000 }), { maxLength: 40 });

/** Hundreds of generated cases each: seconds of work on a loaded 2-core machine, not a hang. */
const PROPERTY_TIMEOUT_MS = 60_000;

describe('the streaming redactor, for any text and any split', () => {
  it('shows exactly what redacting the whole text shows, never revises it, and no 4-character window of a hidden secret', () => {
    fc.assert(
      fc.property(TEXT, CUTS, ({ text, hidden }, cuts) => {
        const r = new StreamRedactor(redact);
        const shown: string[] = [];
        let input = '';
        for (const delta of split(text, cuts)) {
          input += delta;
          shown.push(r.push(delta));
          // What was shown is what redacting the input so far shows, but for the held tail.
          expect(redact(input).startsWith(shown.join(''))).toBe(true);
        }
        shown.push(r.flush());
        expect(shown.join('')).toBe(redact(text));
        for (const secret of hidden) {
          for (const window of windows(secret, 4).filter((w) => !w.includes('\n'))) for (const piece of [...shown, shown.join('')]) expect(piece).not.toContain(window);
        }
      }),
      { numRuns: 400 },
    );
  }, PROPERTY_TIMEOUT_MS);

  it('holds back only the trailing run of token characters: what was shown plus that run is all the input', () => {
    const words = fc.array(fc.tuple(fc.oneof(PROSE, body(1, 60)), SEPARATOR), { maxLength: 30 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(words, CUTS, (text, cuts) => {
        const r = new StreamRedactor((t) => t);
        let input = '';
        let output = '';
        for (const delta of split(text, cuts)) {
          input += delta;
          output += r.push(delta);
          expect(output + /[^\t-\r ]*$/.exec(input)![0]).toBe(input);
        }
        expect(output + r.flush()).toBe(text);
      }),
      { numRuns: 300 },
    );
  }, PROPERTY_TIMEOUT_MS);
});
