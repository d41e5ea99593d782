import { ALNUM, b64, BASE64, DIGITS, HEX, LOWER_ALNUM, type Rng } from './prng.js';

const uuid = (r: Rng) => [8, 4, 4, 4, 12].map((n) => r.chars(HEX, n)).join('-');
const pkg = (r: Rng) => r.pick(['js-tokens', 'lodash', '@babel/core', 'secretlint', 'password-hash', 'tokenizers', 'ansi-regex', 'picomatch']);
const version = (r: Rng) => `${r.int(9)}.${r.int(20)}.${r.int(30)}`;
const pemLines = (r: Rng, n: number) => Array.from({ length: n }, () => r.chars(BASE64, 64)).join('\n');

/** Text that looks like secrets but is not: every line here must come through untouched. */
export const NEGATIVES: Readonly<Record<string, (r: Rng) => string>> = {
  uuids: (r) => `2025-03-02T08:00:01Z INFO request_id=${uuid(r)} trace_id=${uuid(r)} user=${uuid(r)} took ${r.int(900)}ms`,
  'git-shas': (r) => `commit ${r.chars(HEX, 40)}\nMerge: ${r.chars(HEX, 7)} ${r.chars(HEX, 7)}\nAuthor: Dev <dev@example.com>\n\n    fix token refresh (#${r.int(9999)})`,
  'sha-json': (r) => `{"sha": "${r.chars(HEX, 40)}", "tree": {"sha": "${r.chars(HEX, 40)}"}, "node_id": "C_kwDO${r.chars(ALNUM, 20)}"}`,
  'integrity-hashes': (r) => {
    const name = pkg(r);
    const v = version(r);
    return `"node_modules/${name}": {\n  "version": "${v}",\n  "resolved": "https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${v}.tgz",\n  "integrity": "sha512-${r.chars(BASE64, 86)}=="\n},`;
  },
  'checksums': (r) => `${r.chars(HEX, 64)}  dist/app-${version(r)}.tar.gz\nsha256:${r.chars(HEX, 64)}\n"etag": "W/\\"${r.chars(HEX, 32)}\\""`,
  'data-uri': (r) => `<img alt="logo" src="data:image/png;base64,${b64(r.bytes(r.between(200, 1500)))}" />`,
  'base64-image-json': (r) => `{"filename": "shot.jpg", "content_type": "image/jpeg", "data": "${b64(r.bytes(r.between(300, 2000)))}"}`,
  'public-keys': (r) =>
    r.pick([
      `-----BEGIN PUBLIC KEY-----\n${pemLines(r, 6)}\n-----END PUBLIC KEY-----`,
      `-----BEGIN CERTIFICATE-----\n${pemLines(r, 18)}\n-----END CERTIFICATE-----`,
      `-----BEGIN RSA PUBLIC KEY-----\n${pemLines(r, 4)}\n-----END RSA PUBLIC KEY-----`,
      `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${pemLines(r, 10)}\n-----END PGP PUBLIC KEY BLOCK-----`,
    ]),
  'ssh-public-keys': (r) => `ssh-${r.pick(['rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ', 'ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI'])}${r.chars(BASE64, r.between(40, 360))} ${r.pick(['dev', 'ci', 'root'])}@${r.pick(['laptop', 'build-01', 'host'])}`,
  'documented-examples': (r) =>
    r.pick([
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_access_key_id = AKIAI44QH8DHBEXAMPLE\naws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
      'curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      'Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
      'UseDevelopmentStorage=true;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
    ]),
  placeholders: (r) =>
    r.pick([
      'OPENAI_API_KEY=your-api-key',
      '"token": "<token>"',
      'password: changeme',
      'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'OPENAI_API_KEY=sk-...',
      'password: ${DB_PASSWORD}',
      'apiKey: process.env.API_KEY,',
      'token = os.environ["GITHUB_TOKEN"]',
      'secret: {{ .Values.auth.secret }}',
      'password: "********"',
      'client_secret=<YOUR_CLIENT_SECRET>',
      'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
      'DATABASE_URL=postgres://user:password@localhost:5432/dev',
      'DATABASE_URL=postgres://${PGUSER}:${PGPASSWORD}@db:5432/app',
      'api_key: REPLACE_ME',
      'token: ${{ secrets.NPM_TOKEN }}',
      'AWS_SECRET_ACCESS_KEY=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
      'SLACK_BOT_TOKEN=xoxb-your-bot-token',
      'STRIPE_KEY=sk_live_********************',
    ]),
  'already-redacted': (r) =>
    r.pick([
      'GITHUB_TOKEN=[REDACTED github-token]',
      '{"password": "[REDACTED generic-password]", "user": "bob"}',
      'postgres://app:[REDACTED connection-string]@db:5432/x',
      'Authorization: Basic [REDACTED basic-auth]',
      'token: [REDACTED generic-secret]\nsecret = "[REDACTED generic-secret]"',
      'Password=[REDACTED connection-string];Encrypt=True',
      '[REDACTED private-key]\n[REDACTED jwt]',
    ]),
  'minified-js': (r) => {
    const id = () => r.pick(['a', 'e', 't', 'n', 'r', 'o', 'i']) + r.chars(LOWER_ALNUM, r.int(2));
    return `!function(${id()},${id()}){var ${id()}=function(t,e){return t.token=e.token,t.password=e.password||"",t.secret=n.secret,t};${id()}.apiKey=${id()}.apiKey;var ${id()}="${r.chars(HEX, 8)}",${id()}=${r.int(99999)}}(this,function(){"use strict";return{mappings:"${r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/,;', 120)}"}});`;
  },
  'code-with-keywords': (r) =>
    r.pick([
      'const token = await getToken(scope);',
      'password: string;\napiKey?: string;',
      'if (!secret) throw new Error("missing secret");',
      'def login(username: str, password: str) -> Token:',
      'token = request.headers.get("Authorization")',
      `max_tokens: ${r.int(8192)}\ntemperature: 0.2`,
      'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
      'secretName: db-credentials-prod',
      '"token_type": "bearer", "expires_in": 3600',
      '"passwordHint": "At least 8 characters"',
      `password_min_length = ${r.between(8, 16)}`,
      'SECRET_KEY = os.environ.get("SECRET_KEY")',
      '<input type="password" name="password" autocomplete="current-password">',
      'let secret = secrets.token_hex(32)',
      'self.api_key = api_key or settings.API_KEY',
      `next_page_token: "${r.chars(ALNUM, 40)}"`,
      'password = hashlib.sha256(password.encode()).hexdigest()',
      'the token is expired, please log in again',
    ]),
  urls: (r) =>
    r.pick([
      `https://example.com:${r.between(1000, 9999)}/api/v1/items?page=${r.int(40)}`,
      'git@github.com:acme/billing.git',
      'ssh://git@github.com/acme/billing.git',
      `http://localhost:${r.between(3000, 9000)}/health`,
      `mailto:${r.pick(['first.last', 'ops', 'team+alerts'])}@example.com`,
      'https://registry.npmjs.org/@types%2fnode',
      `https://cdn.example.com/assets/app.${r.chars(HEX, 20)}.js`,
      `postgres://localhost:5432/${r.pick(['dev', 'test'])}`,
    ]),
  'non-secret-ids': (r) =>
    r.pick([
      `TWILIO_ACCOUNT_SID=AC${r.chars(HEX, 32)}`,
      `STRIPE_PUBLISHABLE_KEY=pk_live_${r.chars(ALNUM, 24)}`,
      `"client_id": "${r.chars(DIGITS, 12)}-${r.chars(LOWER_ALNUM, 32)}.apps.googleusercontent.com"`,
      `AWS_REGION=eu-west-1\nAWS_ACCOUNT_ID=${r.chars(DIGITS, 12)}`,
      `color: #${r.chars(HEX, 6)}; background: #${r.chars(HEX, 6)};`,
      `"nonce": "${r.chars(ALNUM, 32)}", "state": "${r.chars(ALNUM, 24)}"`,
    ]),
  'password-hashes': (r) =>
    r.pick([
      `admin:$2b$12$${r.chars(`${ALNUM}./`, 53)}:19000:0:99999:7:::`,
      `"password_hash": "$argon2id$v=19$m=65536,t=3,p=4$${r.chars(BASE64, 22)}$${r.chars(BASE64, 43)}"`,
      `hashed_password = "$2a$10$${r.chars(`${ALNUM}./`, 53)}"`,
      `  password: "$2y$10$${r.chars(`${ALNUM}./`, 53)}"`,
    ]),
  'infra-references': (r) =>
    r.pick([
      'password = var.db_password',
      'master_password = random_password.db.result',
      'password: {{ .Values.db.password | quote }}',
      'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password',
      'run: ./deploy.sh\nenv:\n  DEPLOY_KEY: ${{ secrets.DEPLOY_KEY }}',
      'aws secretsmanager get-secret-value --secret-id prod/db --query SecretString',
      `SECRET_ARN=arn:aws:secretsmanager:us-east-1:${r.chars(DIGITS, 12)}:secret:prod/db-${r.chars(ALNUM, 6)}`,
      'vault kv get -field=password secret/data/app',
      'export GITHUB_TOKEN="$(gh auth token)"',
    ]),
  'api-docs': (r) =>
    r.pick([
      'components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key',
      'Pass your token in the header: `Authorization: Bearer <token>`.',
      'curl -H "X-Api-Key: $API_KEY" https://api.example.com/v1/items',
      'Set `OPENAI_API_KEY` to your key; the client reads it from the environment.',
      'The access token expires after one hour; use the refresh token to get a new one.',
    ]),
  'module-checksums': (r) =>
    r.pick([
      `github.com/acme/${r.pick(['log', 'cfg', 'auth'])} v1.${r.int(9)}.${r.int(9)} h1:${r.chars(BASE64, 43)}=`,
      `  resolved "https://registry.yarnpkg.com/${pkg(r)}/-/x-${version(r)}.tgz#${r.chars(HEX, 40)}"\n  integrity sha512-${r.chars(BASE64, 86)}==`,
      `"fingerprint": "SHA256:${r.chars(BASE64, 43)}", "hash": "${r.chars(HEX, 64)}", "digest": "sha256:${r.chars(HEX, 64)}"`,
    ]),
  'encoded-urls': (r) => `GET /login?redirect_uri=https%3A%2F%2Fapp.example.com%2Fauth%2Fcallback%3Fstate%3D${r.chars(HEX, 16)}&scope=read%20write HTTP/1.1`,
  'ansi-logs': (r) =>
    r.pick([
      `\x1b[32m✓\x1b[39m token refresh keeps the session \x1b[90m(${r.int(90)} ms)\x1b[39m`,
      '\x1b[31mFAIL\x1b[0m src/auth/token.test.ts > rejects an expired token',
      `\x1b[1m\x1b[33mwarn\x1b[39m\x1b[22m password policy: minimum length is ${r.between(8, 16)}`,
    ]),
  'json-escaped-logs': (r) =>
    r.pick([
      `{"msg":"user login ok\\nsession=${uuid(r)}","level":"info"}`,
      '{"output":"password updated for user \\"bob\\"\\n","code":0}',
      `{"stdout":"\\u001b[32mPASS\\u001b[39m auth.test.ts\\n","took":${r.int(900)}}`,
    ]),
  // Shapes earlier rules flagged in real text (node_modules, Python, Perl, /usr/share/doc).
  'real-text-shapes': (r) =>
    r.pick([
      '  printf(&quot;Password is correct.&quot;);',
      '&lt;protocol&gt;://[&lt;user&gt;[:&lt;password&gt;]@]&lt;hostname&gt;',
      '  perldoc -u Some::Modulename',
      '    :type passphrase: :py:data:`bytes`',
      'var jsTokens = /*@__PURE__*/getDefaultExportFromCjs(jsTokensExports);',
      '[![codecov](https://codecov.io/gh/acme/app/graph/badge.svg?token=pawWEyaMfg)](https://codecov.io/gh/acme/app)',
      'const token = this.tokenData?.token?.trim();',
      '  withCredentials: kEnumerableProperty,',
      '"Analyzer_expected_to_find_a_1_to_match_the_0_token_here_1007": "分析器预期在此处找到与“{0}”标记匹配的“{1}”。",',
      "const options = new URL('https://abc:xyz@example.com');",
      'def _encode_private(self, private_key: ed25519.Ed25519PrivateKey, f_priv: _FragList) -> None:',
      '    AttributeOID.CHALLENGE_PASSWORD: "challengePassword",',
      '        self.passwd = password_mgr',
      '   * object.passphrase is optional. Encrypted keys will be decrypted with it.',
      'lastSignificantToken = "?NonExpressionParenKeyword";',
      'PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\nKh9NV...\\n-----END RSA PRIVATE KEY-----\\n"',
      "  '--password --inputbox'",
      'proxy_url="socks5h://<username>:<password>@proxy-host"',
    ]),
  'kubernetes-non-secrets': (r) =>
    r.pick([
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: ${b64('a,b,c')}`,
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${b64(`-----BEGIN CERTIFICATE-----\n${pemLines(r, 3)}\n-----END CERTIFICATE-----`)}\n  username: ${b64('admin')}`,
      'apiVersion: external-secrets.io/v1beta1\nkind: SecretStore\nmetadata:\n  name: vault\nspec:\n  provider:\n    vault:\n      path: secret',
    ]),
};
