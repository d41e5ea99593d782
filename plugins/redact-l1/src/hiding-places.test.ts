import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { redact } from './redactor.js';

const TOKEN = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';
const AWS_SECRET = 'hT9+uXwq3Lk/ZpV7mRb2NcYs8DfGa4JeQo1Wi6Kv';

/** The one finding, with the original text it covers. */
function only(text: string) {
  const { findings, text: out } = redact(text);
  expect(findings).toHaveLength(1);
  return { ...findings[0]!, covered: text.slice(findings[0]!.start, findings[0]!.end), out };
}

describe('secrets where they hide', () => {
  it('inside a JSON string with \\uXXXX escapes, offsets over the escaped form', () => {
    const escaped = `${TOKEN.slice(0, 10)}\\u00${TOKEN.charCodeAt(10).toString(16)}${TOKEN.slice(11)}`;
    const found = only(`{"k": "${escaped}"}`);
    expect(found).toMatchObject({ class: 'github-token', covered: escaped });
  });

  it('inside a JSON string with escaped slashes and quotes', () => {
    const found = only(`{"body": "{\\"url\\": \\"https:\\/\\/hooks.slack.com\\/services\\/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\\"}"}`);
    expect(found.class).toBe('slack-webhook');
    expect(found.out).not.toContain('Qw7Er9Ty2Ui4Op6As8Df1Gh3');
  });

  it('right after a literal backslash-n', () => {
    expect(only('"a\\nAKIAQWERTYUIOPASDF2H"')).toMatchObject({ class: 'aws-access-key', covered: 'AKIAQWERTYUIOPASDF2H' });
  });

  it('inside terminal colour codes, real ESC or JSON-escaped', () => {
    expect(only(`\x1b[31m${TOKEN}\x1b[0m`)).toMatchObject({ class: 'github-token', covered: TOKEN });
    expect(only(`{"out": "\\u001b[31m${TOKEN}\\u001b[0m"}`)).toMatchObject({ class: 'github-token', covered: TOKEN });
  });

  it('percent-encoded inside a token or a password', () => {
    const encoded = encodeURIComponent(AWS_SECRET);
    expect(only(`aws_secret_access_key=${encoded}`)).toMatchObject({ class: 'aws-secret-key', covered: encoded });
    expect(only('next=https%3A%2F%2Fdeploy%3AW1nter%2B2025%21%40ci.example.com%2Fhook')).toMatchObject({ class: 'url-password', covered: 'W1nter%2B2025%21' });
  });

});

describe('secrets wrapped in base64 or blocks', () => {
  it('in base64 basic auth: decoded, judged, the whole value redacted', () => {
    const value = Buffer.from('deploy:Sup3r$ecretPw').toString('base64');
    expect(only(`Authorization: Basic ${value}`)).toMatchObject({ class: 'basic-auth', covered: value });
    const withToken = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
    expect(only(`Authorization: Basic ${withToken}`)).toMatchObject({ class: 'github-token', covered: withToken });
  });

  it('in a Kubernetes Secret: data values decoded and checked, kubectl order (data before kind)', () => {
    const password = Buffer.from('Tr0ub4dor&3x').toString('base64');
    const text = `apiVersion: v1\ndata:\n  password: ${password}\n  username: ${Buffer.from('admin').toString('base64')}\nkind: Secret\nmetadata:\n  name: db\n`;
    expect(only(text)).toMatchObject({ class: 'kubernetes-secret', covered: password });
  });

  it('in a Kubernetes Secret printed as JSON inside a JSON string', () => {
    const token = Buffer.from(TOKEN).toString('base64');
    const manifest = JSON.stringify({ kind: 'Secret', data: { token } }, null, 1);
    expect(only(JSON.stringify({ output: manifest }))).toMatchObject({ class: 'github-token', covered: token });
  });

  it('in a Docker config.json auth entry', () => {
    const auth = Buffer.from('me:dckr_pat_R8x2KqLm9ZtV4nWp7Yb').toString('base64');
    expect(only(`{"auths": {"ghcr.io": {"auth": "${auth}"}}}`)).toMatchObject({ class: 'basic-auth', covered: auth });
  });

  it('in a truncated PEM key (no END line): redacted to the end of its body', () => {
    const body = 'MIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u'.repeat(2);
    const found = only(`$ head -c 300 id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${body}`);
    expect(found).toMatchObject({ class: 'private-key', out: '$ head -c 300 id_rsa\n[REDACTED private-key]' });
  });
});
