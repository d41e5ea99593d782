import { b64, type Rng } from './prng.js';

/** A text with the secret somewhere in it, and the exact form the secret takes there. */
export interface Placed {
  readonly text: string;
  /** The secret as it appears in `text` (escaped, encoded or wrapped). */
  readonly shown: string;
  /** The class a detector should give it there (a wrapper's class when the secret alone is unknown). */
  readonly class: string;
}

const camel = (key: string) => key.toLowerCase().replace(/[-_]+([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase();
const env = (key: string) => snake(key).toUpperCase();

/** One-line places a value is assigned in: `.env`, JSON, YAML, shell, source code, logs, commands, prose. */
export const LINE_CONTEXTS: Readonly<Record<string, (r: Rng, key: string, value: string, standalone: boolean) => string>> = {
  env: (_r, key, value) => `# production\n${env(key)}=${value}\nLOG_LEVEL=info`,
  'env-quoted': (_r, key, value) => `${env(key)}="${value}"`,
  'shell-export': (_r, key, value) => `export ${env(key)}='${value}'\nnpm run deploy`,
  json: (_r, key, value) => `{\n  "name": "billing",\n  "${camel(key)}": "${value}",\n  "debug": false\n}`,
  yaml: (_r, key, value) => `service:\n  name: billing\n  ${snake(key)}: ${value}\n  replicas: 2`,
  toml: (_r, key, value) => `[service]\n${snake(key)} = "${value}"\ntimeout = 30`,
  'source-js': (_r, key, value) => `import { Client } from './client.js';\nconst ${camel(key)} = "${value}";\nexport const client = new Client(${camel(key)});`,
  'source-py': (_r, key, value) => `import os\n\n${snake(key)} = '${value}'\nclient = Client(${snake(key)})`,
  log: (r, key, value) => `2025-03-0${r.between(1, 9)}T10:22:33.123Z INFO [worker-${r.int(9)}] loaded ${snake(key)}=${value} status=200`,
  curl: (_r, key, value, standalone) =>
    standalone ? `curl -sS -H "Authorization: Bearer ${value}" https://api.example.com/v1/me` : `curl -sS -H "${key.replace(/_/g, '-')}: ${value}" https://api.example.com/v1/me`,
  sql: (r, key, value) =>
    /pass|pwd/i.test(key)
      ? r.pick([`ALTER USER app WITH PASSWORD '${value}';`, `CREATE USER 'svc'@'%' IDENTIFIED BY '${value}';`])
      : `UPDATE settings SET ${snake(key)} = '${value}' WHERE id = 1;`,
  prose: (_r, key, value, standalone) => (standalone ? `I pasted ${value} into the config but the deploy still fails, any idea why?` : `my ${snake(key)} is ${value} btw`),
};

/** Contexts for blocks (keys, manifests, command lines): as read from a file or printed by a command. */
export const BLOCK_CONTEXTS: Readonly<Record<string, (r: Rng, value: string) => string>> = {
  file: (_r, value) => value,
  'cat-output': (r, value) => `$ cat ./secrets/${r.pick(['id_rsa', 'creds.json', 'secret.yaml', 'notes.txt'])}\n${value}\n$ `,
};

/** A JSON string literal's body for `text` (what a tool result in JSON shows). */
export const jsonBody = (text: string) => JSON.stringify(text).slice(1, -1);

/** Replaces one letter or digit in the middle of `shown` with its `\u00XX` escape. */
function unicodeEscapeOne(r: Rng, shown: string): string {
  const candidates = [...shown].map((c, i) => (/[A-Za-z0-9]/.test(c) && i > 4 && i < shown.length - 4 ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return shown;
  const i = r.pick(candidates);
  return `${shown.slice(0, i)}\\u${shown.charCodeAt(i).toString(16).padStart(4, '0')}${shown.slice(i + 1)}`;
}

/** Where secrets hide: escaped, colour-coded, percent-encoded or base64-wrapped forms of a line. */
export const HIDING_PLACES: Readonly<Record<string, (r: Rng, line: string, secret: string, cls: string, selfEvident: boolean) => Placed | undefined>> = {
  'json-escaped': (_r, line, secret, cls) => ({ text: `{"tool":"shell","exit":0,"output":"${jsonBody(`$ env\n${line}\n`)}"}`, shown: jsonBody(secret), class: cls }),
  'unicode-escape': (r, line, secret, cls) => {
    const shown = unicodeEscapeOne(r, jsonBody(secret));
    return { text: `{"result":"${jsonBody(line).replace(jsonBody(secret), shown)}"}`, shown, class: cls };
  },
  'slash-escape': (_r, line, secret, cls) => {
    if (!line.includes('/')) return undefined;
    const escape = (s: string) => jsonBody(s).replaceAll('/', '\\/');
    return { text: `{"ok":true,"body":"${escape(line)}"}`, shown: escape(secret), class: cls };
  },
  'backslash-n': (_r, line, secret, cls) => ({ text: `{"stdout":"${jsonBody(`build ok\n${line}\n`)}"}`, shown: jsonBody(secret), class: cls }),
  ansi: (_r, line, secret, cls) => ({ text: `\x1b[32mINFO\x1b[0m ${line.replace(secret, `\x1b[1;31m${secret}\x1b[0m`)}`, shown: secret, class: cls }),
  'url-encoded': (_r, line, secret, cls) => ({ text: `GET /oauth/callback?state=${encodeURIComponent(line)}&ts=1700000000 HTTP/1.1`, shown: encodeURIComponent(secret), class: cls }),
  'basic-auth': (r, _line, secret, cls, selfEvident) => {
    if (secret.includes('\n') || /^https?:/.test(secret)) return undefined;
    const shown = b64(`${r.pick(['admin', 'ci', 'x-token'])}:${secret}`);
    return { text: `curl -H "Authorization: Basic ${shown}" https://internal.example.com/api`, shown, class: selfEvident ? cls : 'basic-auth' };
  },
  kubernetes: (r, _line, secret, cls, selfEvident) => {
    const shown = b64(secret);
    const key = cls === 'generic-password' ? 'password' : r.pick(['token', 'api-key', 'credentials']);
    return { text: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  ${key}: ${shown}\n  username: ${b64('app')}`, shown, class: selfEvident ? cls : 'kubernetes-secret' };
  },
};
