import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import { CLASS_SPECS } from '../test/corpus/generate.js';
import { ALNUM, Rng } from '../test/corpus/prng.js';
import { SECRET_CLASSES } from './classes.js';
import { createRedactor, redact } from './redactor.js';

const GITHUB = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';

/** The single finding of `text`, which must cover `secret` exactly or more. */
function findingFor(text: string, secret: string) {
  const start = text.indexOf(secret);
  return redact(text).findings.find((f) => f.start <= start && f.end >= start + secret.length);
}

describe('redact: every class, by its documented format', () => {
  const r = new Rng(7);
  for (const spec of CLASS_SPECS) {
    it(`finds ${spec.class} assigned to ${spec.keys[0]}`, () => {
      const { secret, carrier } = spec.make(r);
      const text = spec.block ? carrier : `${spec.keys[0]!.toUpperCase()}=${carrier}`;
      expect(findingFor(text, secret)?.class).toBe(spec.class);
      expect(redact(text).text).not.toContain(secret);
    });
  }

  it('names only classes of the published list', () => {
    const r2 = new Rng(8);
    for (const spec of CLASS_SPECS) {
      const { carrier } = spec.make(r2);
      for (const f of redact(spec.block ? carrier : `${spec.keys[0]}=${carrier}`).findings) expect(SECRET_CLASSES).toContain(f.class);
    }
  });
});

describe('redact: output and offsets', () => {
  it('replaces each secret with [REDACTED <class>] and keeps the rest', () => {
    expect(redact(`token: ${GITHUB} ok`).text).toBe('token: [REDACTED github-token] ok');
  });

  it('gives offsets into the original text, never the value', () => {
    const text = `a=1\nGITHUB_TOKEN=${GITHUB}\nDB_PASSWORD="Sup3r$ecret!9"\n`;
    const { findings } = redact(text);
    expect(findings.map((f) => text.slice(f.start, f.end))).toEqual([GITHUB, 'Sup3r$ecret!9']);
    expect(JSON.stringify(findings)).not.toContain('Sup3r');
  });

  it('merges overlapping findings into one span with the surer class', () => {
    const text = `https://x-access-token:${GITHUB}@github.com/acme/app.git`;
    const start = text.indexOf(GITHUB);
    expect(redact(text).findings).toEqual([{ class: 'github-token', start, end: start + GITHUB.length }]);
  });

  it('leaves text without secrets untouched (same string)', () => {
    const text = 'const token = await getToken();\npassword: string;\n';
    expect(redact(text)).toEqual({ text, findings: [] });
  });
});

describe('redact: allow-list', () => {
  it.each([
    ['AWS documentation keys', 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['placeholders', 'OPENAI_API_KEY=your-api-key\ntoken: <token>\npassword: changeme\nGITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    ['references', 'password: ${DB_PASSWORD}\napiKey: process.env.API_KEY\ntoken: ${{ secrets.NPM_TOKEN }}\nsecret: "***"'],
    ['jwt.io example', 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'],
    ['public keys and certificates', `-----BEGIN PUBLIC KEY-----\n${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(4)}\n-----END PUBLIC KEY-----\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK1 dev@laptop`],
    ['an elided key in documentation', 'PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\nKh9NV...\\n-----END RSA PRIVATE KEY-----"'],
  ])('leaves %s alone', (_name, text) => {
    expect(redact(text).findings).toEqual([]);
  });
});

describe('redact: idempotence', () => {
  const secrets = [GITHUB, 'AKIAQWERTYUIOPASDF2H', 'password=Hunter2!xyz', 'postgres://app:Tr0ub4dor3x@db:5432/app', 'Authorization: Basic YWxpY2U6U3VwM3JTZWNyZXQh'];
  // Parts are joined by separators: a secret glued to letters (`…2Hghp_…`) is by design not a token.
  const separator = fc.constantFrom(' ', '\n', '"', '\\n', '\t', '\x1b[31m', ', ');
  const part = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...secrets, '=', ':', '%2F', '\\u0041'));
  const text = fc.array(fc.tuple(part, separator), { maxLength: 12 }).map((pairs) => pairs.flat().join(''));

  it('redacting already-redacted text changes nothing', () => {
    fc.assert(
      fc.property(text, (t) => {
        const once = redact(t).text;
        expect(redact(once).text).toBe(once);
      }),
      { numRuns: 400 },
    );
  });

  it('every finding covers text that is gone from the output', () => {
    fc.assert(
      fc.property(text, (t) => {
        const { text: out, findings } = redact(t);
        for (const f of findings) expect(f.end).toBeGreaterThan(f.start);
        for (const s of secrets.slice(0, 2)) if (t.includes(s)) expect(out).not.toContain(s);
      }),
      { numRuns: 400 },
    );
  });
});

describe('createRedactor: fails closed', () => {
  it('throws a REDACT_FAILED envelope that names nothing of the text when detection breaks', () => {
    const redactor = createRedactor(() => {
      throw new RangeError('boom');
    });
    let error: unknown;
    try {
      redactor.redact(`my token ${GITHUB}`);
    } catch (caught) {
      error = caught;
    }
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'INTERNAL', code: 'REDACT_FAILED', plugin: '@nodwyn/plugin-redact-l1' });
    expect(JSON.stringify(isEnvelopeError(error) && error.envelope)).not.toContain(GITHUB);
  });

  it('redacts like redact() when detection works', () => {
    const text = `x ${new Rng(3).chars(ALNUM, 4)} ${GITHUB}`;
    expect(createRedactor().redact(text)).toEqual(redact(text));
  });
});
