import type { OperationDescriptor, ParamDescriptor } from './operation-types.js';

/** What previews, diagnostics and envelopes show in place of a credential, a key or a sensitive field. */
export const REDACTED = '<redacted>';

/** Whether a parameter is sensitive: by its own flag, or named in `sensitive` by wire name or "<in>.<name>". */
export function isSensitiveParam(operation: OperationDescriptor, param: ParamDescriptor): boolean {
  if (param.sensitive === true) return true;
  const listed = operation.sensitive ?? [];
  return listed.includes(param.name) || listed.includes(`${param.in}.${param.name}`);
}

/**
 * Whether the value at `path` ("petId", "body.user.password", "body.tags[0]") may show a sensitive
 * field: the path is one, lies below one, or holds one (a whole body that contains a password).
 */
export function isSensitivePath(operation: OperationDescriptor, path: string): boolean {
  const param = operation.params.find((candidate) => candidate.name === path);
  if (param !== undefined) return isSensitiveParam(operation, param);
  return (operation.sensitive ?? []).some((field) => field === path || within(path, field) || within(field, path));
}

function within(path: string, parent: string): boolean {
  return path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
}

/** A copy of `body` with every sensitive field (`sensitive` paths under "body.") replaced by REDACTED. */
export function redactBody(operation: OperationDescriptor, body: unknown): unknown {
  const fields = (operation.sensitive ?? []).filter((field) => field === 'body' || field.startsWith('body.') || field.startsWith('body['));
  if (fields.length === 0) return body;
  return redactAt(body, 'body', new Set(fields));
}

function redactAt(value: unknown, path: string, fields: ReadonlySet<string>): unknown {
  if (fields.has(path)) return REDACTED;
  if (Array.isArray(value)) return value.map((item, index) => redactAt(item, `${path}[${index}]`, fields));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactAt(item, `${path}.${key}`, fields)]));
  }
  return value;
}

/** Shortest value concealed in server text: shorter ones would redact ordinary words. */
const CONCEAL_MIN = 4;

/**
 * A function that replaces, in text a server or a socket wrote, the call's idempotency key and the
 * values of its sensitive arguments: servers echo what they were sent, and an envelope goes to the
 * log, the screen and the model.
 */
export function concealer(operation: OperationDescriptor, args: Readonly<Record<string, unknown>>, key: string | undefined): (text: string) => string {
  const values = new Set<string>(key === undefined ? [] : [key]);
  const collect = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') values.add(String(value));
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  for (const param of operation.params) if (isSensitiveParam(operation, param)) collect(args[param.name]);
  const body = redactBody(operation, args.body);
  const walk = (original: unknown, redacted: unknown): void => {
    if (redacted === REDACTED && original !== REDACTED) collect(original);
    else if (typeof original === 'object' && original !== null && typeof redacted === 'object' && redacted !== null) {
      for (const [name, item] of Object.entries(original)) walk(item, (redacted as Record<string, unknown>)[name]);
    }
  };
  walk(args.body, body);
  const secrets = [...values].filter((value) => value.length >= CONCEAL_MIN).sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}
