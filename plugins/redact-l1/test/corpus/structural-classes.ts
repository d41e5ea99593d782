import { carried, keyed, token, type ClassSpec } from './class-spec.js';
import { ALNUM, b64, BASE64, BASE64URL, DIGITS, HEX, HEX_UPPER, LOWER_ALNUM, PASSWORD_SYMBOLS, UPPER_ALNUM, type Rng } from './prng.js';

const WORDS = ['Summer', 'Winter', 'Dragon', 'Monkey', 'Sunshine', 'Shadow', 'Falcon', 'Orange', 'Silver', 'Thunder', 'Coffee', 'Rocket'];
const USERS = ['admin', 'deploy', 'app', 'svc_backup', 'jenkins', 'alice', 'ci-bot'];
const HOSTS = ['db.internal.example.com', 'prod-db-1.acme.io', '10.0.3.17', 'cluster0.ab1cd.mongodb.net', 'cache.example.net'];

/** A password as people and password managers make them: word+digits+symbol, random, or a passphrase. */
export function password(r: Rng): string {
  const kind = r.int(3);
  if (kind === 0) return `${r.pick(WORDS)}${r.chars(DIGITS, r.between(2, 4))}${r.chars(PASSWORD_SYMBOLS, 1)}`;
  if (kind === 1) {
    const core = r.chars(`${ALNUM}${PASSWORD_SYMBOLS}`, r.between(10, 22));
    const at = r.int(core.length);
    return `${core.slice(0, at)}${r.chars(DIGITS, 1)}${r.chars(PASSWORD_SYMBOLS, 1)}${core.slice(at)}`;
  }
  return `${r.pick(WORDS)}-${r.pick(WORDS).toLowerCase()}-${r.chars(DIGITS, 2)}${r.chars(PASSWORD_SYMBOLS, 1)}`;
}

/** A random API secret in one of the shapes services hand out. */
export function genericToken(r: Rng): string {
  const kind = r.int(6);
  if (kind === 0) return r.chars(HEX, r.pick([32, 40, 64]));
  if (kind === 1) return r.chars(ALNUM, r.pick([24, 32, 40]));
  if (kind === 2) return `${r.chars(BASE64, 39)}=`;
  if (kind === 3) return [8, 4, 4, 4, 12].map((n) => r.chars(HEX, n)).join('-');
  if (kind === 4) return r.chars(BASE64URL, 43);
  return `${r.pick(['live', 'prod', 'key'])}_${r.chars(ALNUM, 32)}`;
}

function awsSecret(r: Rng): string {
  for (;;) {
    const value = r.chars(BASE64, 40);
    if (/[0-9/+]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value)) return value;
  }
}

function pemBody(r: Rng, lines: number): string {
  return Array.from({ length: lines }, (_, i) => r.chars(BASE64, i === lines - 1 ? r.between(8, 64) : 64)).join('\n');
}

function pemKey(r: Rng): string {
  const label = r.pick(['RSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'DSA PRIVATE KEY']);
  const headers = label === 'RSA PRIVATE KEY' && r.float() < 0.3 ? `Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${r.chars(HEX_UPPER, 32)}\n\n` : '';
  const lines = label === 'EC PRIVATE KEY' ? 3 : r.between(6, 26);
  return `-----BEGIN ${label}-----\n${headers}${pemBody(r, lines)}\n-----END ${label}-----`;
}

function otherKey(r: Rng): string {
  if (r.float() < 0.5) return `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pemBody(r, 12)}\n=${r.chars(BASE64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`;
  return [
    `PuTTY-User-Key-File-${r.pick([2, 3])}: ssh-rsa`,
    'Encryption: none',
    `Comment: rsa-key-2024${r.chars(DIGITS, 4)}`,
    'Public-Lines: 2',
    pemBody(r, 2),
    'Private-Lines: 4',
    pemBody(r, 4),
    `Private-MAC: ${r.chars(HEX, 40)}`,
  ].join('\n');
}

function serviceAccount(r: Rng): { secret: string; carrier: string } {
  const secret = `-----BEGIN PRIVATE KEY-----\\n${pemBody(r, 26).replaceAll('\n', '\\n')}\\n-----END PRIVATE KEY-----`;
  const project = `proj-${r.chars(LOWER_ALNUM, 6)}`;
  const carrier = `{\n  "type": "service_account",\n  "project_id": "${project}",\n  "private_key_id": "${r.chars(HEX, 40)}",\n  "private_key": "${secret}\\n",\n  "client_email": "ci@${project}.iam.gserviceaccount.com"\n}`;
  return { secret, carrier };
}

function connectionString(r: Rng): { secret: string; carrier: string } {
  const secret = encodeURIComponent(password(r));
  const user = r.pick(USERS);
  const host = r.pick(HOSTS);
  const carrier = r.pick([
    `postgres://${user}:${secret}@${host}:5432/app?sslmode=require`,
    `mongodb+srv://${user}:${secret}@${host}/prod?retryWrites=true`,
    `mysql://${user}:${secret}@${host}:3306/shop`,
    `redis://:${secret}@${host}:6379/0`,
    `Server=tcp:${host},1433;Initial Catalog=app;User ID=${user};Password=${secret};Encrypt=True;`,
    `jdbc:postgresql://${host}:5432/app?user=${user}&password=${secret}`,
  ]);
  return { secret, carrier };
}

function kubernetesSecret(r: Rng): { secret: string; carrier: string } {
  const isPassword = r.float() < 0.5;
  const secret = b64(isPassword ? password(r) : genericToken(r));
  const key = isPassword ? r.pick(['password', 'db-password', 'POSTGRES_PASSWORD']) : r.pick(['api-key', 'token', 'client-secret']);
  const name = `app-${r.chars(LOWER_ALNUM, 5)}`;
  const carrier = r.float() < 0.7
    ? `apiVersion: v1\ndata:\n  ${key}: ${secret}\n  username: ${b64(r.pick(USERS))}\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: default\ntype: Opaque`
    : `{\n  "apiVersion": "v1",\n  "kind": "Secret",\n  "metadata": {"name": "${name}"},\n  "data": {\n    "${key}": "${secret}",\n    "username": "${b64(r.pick(USERS))}"\n  }\n}`;
  return { secret, carrier };
}

function basicAuth(r: Rng): { secret: string; carrier: string } {
  const pw = password(r);
  const kind = r.int(3);
  if (kind === 2) return { secret: pw, carrier: `curl -fsS -u ${r.pick(USERS)}:${pw} https://api.example.com/v2/builds` };
  const secret = b64(`${r.pick(USERS)}:${pw}`);
  if (kind === 1) return { secret, carrier: `{\n  "auths": {\n    "registry.example.com": {\n      "auth": "${secret}"\n    }\n  }\n}` };
  return { secret, carrier: `GET /v1/reports HTTP/1.1\nHost: api.example.com\nAuthorization: Basic ${secret}\nAccept: */*` };
}

/** Classes recognised by structure around the secret, or by the key it is assigned to. */
export const STRUCTURAL_CLASSES: readonly ClassSpec[] = [
  keyed('aws-secret-key', ['aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'SecretAccessKey', 'awsSecretKey'], awsSecret),
  carried('gcp-service-account', ['GOOGLE_APPLICATION_CREDENTIALS_JSON'], serviceAccount, true),
  carried('azure-storage-key', ['AZURE_STORAGE_CONNECTION_STRING', 'ServiceBusConnection'], (r) => {
    const secret = r.float() < 0.6 ? `${r.chars(BASE64, 86)}==` : `${r.chars(BASE64, 43)}=`;
    const carrier = secret.length > 60
      ? `DefaultEndpointsProtocol=https;AccountName=st${r.chars(LOWER_ALNUM, 8)};AccountKey=${secret};EndpointSuffix=core.windows.net`
      : `Endpoint=sb://ns-${r.chars(LOWER_ALNUM, 6)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${secret}`;
    return { secret, carrier };
  }),
  carried('azure-sas', ['BLOB_SAS_URL', 'sasUrl'], (r) => {
    const secret = encodeURIComponent(`${r.chars(BASE64, 43)}=`);
    const carrier = `https://st${r.chars(LOWER_ALNUM, 8)}.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=rl&se=2025-0${r.between(1, 9)}-15T18:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig=${secret}`;
    return { secret, carrier };
  }),
  carried('slack-webhook', ['SLACK_WEBHOOK_URL', 'slackWebhook'], (r) => {
    const secret = `services/T${r.chars(UPPER_ALNUM, 8)}/B${r.chars(UPPER_ALNUM, 10)}/${r.chars(ALNUM, 24)}`;
    return { secret, carrier: `https://hooks.slack.com/${secret}` };
  }),
  carried('discord-webhook', ['DISCORD_WEBHOOK', 'discordHook'], (r) => {
    const secret = `${r.chars(DIGITS, 18)}/${r.chars(BASE64URL, 68)}`;
    return { secret, carrier: `https://${r.pick(['', 'ptb.', 'canary.'])}discord.com/api/webhooks/${secret}` };
  }),
  keyed('twilio', ['TWILIO_AUTH_TOKEN', 'twilio_api_secret', 'TWILIO_TOKEN'], (r) => r.chars(HEX, 32)),
  keyed('datadog-key', ['DD_API_KEY', 'DATADOG_API_KEY', 'DD_APP_KEY', 'DD_APPLICATION_KEY'], (r) => r.chars(HEX, r.pick([32, 40]))),
  carried('sentry-dsn', ['SENTRY_DSN', 'sentryDsn'], (r) => {
    const secret = r.chars(HEX, 32);
    return { secret, carrier: `https://${secret}@o${r.chars(DIGITS, 6)}.ingest.${r.pick(['', 'us.', 'de.'])}sentry.io/${r.chars(DIGITS, 7)}` };
  }),
  carried('private-key', ['SSH_PRIVATE_KEY', 'TLS_KEY'], (r) => {
    const secret = pemKey(r);
    return { secret, carrier: secret };
  }, true),
  carried('private-key', ['PGP_KEY', 'PPK'], (r) => {
    const secret = otherKey(r);
    return { secret, carrier: secret };
  }, true),
  token('private-key', ['SOPS_AGE_KEY', 'AGE_KEY'], (r) => `AGE-SECRET-KEY-1${r.chars('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`),
  carried('url-password', ['SERVICE_URL', 'webhookUrl', 'PROXY_URL'], (r) => {
    const secret = encodeURIComponent(password(r));
    const host = r.pick(['api.example.com', 'proxy.corp.example:3128', 'files.example.org']);
    return { secret, carrier: `${r.pick(['https', 'http', 'ftp', 'smtp'])}://${r.pick(USERS)}:${secret}@${host}/${r.pick(['v1/hooks', 'upload', ''])}` };
  }),
  carried('connection-string', ['DATABASE_URL', 'ConnectionStrings__Default', 'MONGO_URI'], connectionString),
  carried('basic-auth', ['AUTH_HEADER'], basicAuth, true),
  carried('kubernetes-secret', ['MANIFEST'], kubernetesSecret, true),
  keyed('generic-password', ['DB_PASSWORD', 'password', 'MYSQL_ROOT_PASSWORD', 'adminPassword', 'SMTP_PASSWORD', 'passwd', 'DB_PWD', 'PGPASSWORD', 'passphrase', 'redis_password'], password),
  keyed('generic-secret', [
    'API_KEY', 'api_key', 'apiKey', 'client_secret', 'CLIENT_SECRET', 'SECRET_KEY', 'access_token', 'auth_token', 'x-api-key',
    'webhook_secret', 'JWT_SECRET', 'refresh_token', 'app_secret', 'SESSION_SECRET', 'ENCRYPTION_KEY', 'signing_key', 'private_token',
  ], genericToken),
];
