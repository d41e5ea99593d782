/**
 * Keys vendors publish in their documentation. They match the real formats exactly but grant nothing,
 * and they are pasted everywhere (tutorials, tests, SDK READMEs), so flagging them would be noise.
 */
export const DOCUMENTED_EXAMPLES: ReadonlySet<string> = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AKIAI44QH8DHBEXAMPLE',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  'sk_test_BQokikJOvBiI2HlWgH4olfQ2',
  'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
  // jwt.io's default token (HS256, "your-256-bit-secret").
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  // The Azure Storage emulator's fixed account key (devstoreaccount1).
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
  // RFC 7617's basic-auth example, "Aladdin:open sesame".
  'QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
  // RFC 6749 (OAuth 2.0): the example access and refresh tokens, code, and client credentials.
  '2YotnFZFEjr1zCsicMWpAA',
  'tGzv3JOkF0XG5Qx2TlKWIA',
  'SplxlOBeZQQYbYS6WxSbIA',
  'czZCaGRSa3F0MzpnWDFmQmF0M2JW',
  'gX1fBat3bV',
  // RFC 5849 (OAuth 1.0): the example token and secrets.
  'nnch734d00sl2jdk',
  'pfkkdhi9sl3r4s00',
  'kd94hf93k423kf44',
  'hh5s93j4hdidpola',
  'hdhd0244k9j7ao03',
]);

/** Whole values that name a type, a flag or a default instead of holding a secret. */
const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set(
  (
    'password passwd pwd pass secret token key apikey api_key api-key none null nil undefined true false yes no ' +
    'empty required optional string str bytes int number redacted hidden masked changeme default value values ' +
    'test testing dummy sample example foo bar baz admin root guest user username postgres mysql demo secret123 ' +
    'password123 mypassword mysecret mytoken'
  ).split(' '),
);

const STAND_IN_WORDS = ['example', 'sample', 'dummy', 'fake', 'placeholder', 'changeme', 'change_me', 'change-me', 'replaceme', 'replace_me', 'replace-me', 'your', 'notreal', 'not-a-real', 'not_a_real', 'redacted', 'insert_', 'insert-'];
/**
 * Words that mark a value as a stand-in wherever they appear in it, written as words are (`example`,
 * `EXAMPLE`, `Example`). A random token spells `fAKE` or `YoUr` now and then; that is not a word.
 */
const PLACEHOLDER_WORDS_INSIDE = new RegExp(
  STAND_IN_WORDS.flatMap((w) => [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]).map((w) => w.replace(/[-_]/g, '[-_]')).join('|'),
);
/**
 * Masks, truncations and runs that random secrets do not contain. Case-sensitive on purpose: a random
 * base64 token holds `XXXx` about once in ten thousand, `XXXX` forty times less often.
 */
const PLACEHOLDER_SHAPES = /xxxx|XXXX|\*{3}|•{3}|\.\.\.|…|(.)\1{7}|0123456789|1234567890|abcdefghij|ABCDEFGHIJ/;

/** References to where a secret lives (environment, templates, secret stores) rather than the secret. */
const REFERENCE =
  /^\$[A-Za-z_{(]|\$\{|\{\{|\$\(|%\(|<%|#\{|^%[A-Za-z_]+%$|^<|^&lt;|process\.env|import\.meta\.env|os\.environ|getenv|ENV\[|secrets\.|^(?:vault|ssm|env|file|arn|op|sm|gcpsm|azkv):/i;

/**
 * True when `value` is a stand-in rather than a secret: a vendor's documented example, an obvious
 * placeholder (`your-api-key`, `xxxx`, `***`, `changeme`), a reference (`${ENV_VAR}`, `process.env.X`,
 * `{{ secrets.X }}`), or text this layer already redacted.
 */
export function isPlaceholder(value: string): boolean {
  if (value.startsWith('[REDACTED')) return true;
  if (DOCUMENTED_EXAMPLES.has(value)) return true;
  if (PLACEHOLDER_WORDS.has(value.toLowerCase())) return true;
  return PLACEHOLDER_WORDS_INSIDE.test(value) || PLACEHOLDER_SHAPES.test(value) || REFERENCE.test(value);
}
