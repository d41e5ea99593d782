import type { Envelope } from '@nodwyn/protocol';
import { transportEnvelope, type TransportCode } from './codes.js';
import { isSensitivePath } from './operation-redaction.js';
import type { OperationDescriptor, ParamDescriptor } from './operation-types.js';

/** A call's arguments after preflight: one flat object, optional arguments set to undefined removed. */
export type CallArgs = Readonly<Record<string, unknown>>;

/** The arguments ready to render, or the first problem as a VALIDATION_FAILED envelope. */
export type PreflightResult = { readonly ok: true; readonly args: CallArgs } | { readonly ok: false; readonly envelope: Envelope };

type Problem = { code: TransportCode; path?: string; value?: unknown; expected: string; remediation: string; hasValue: boolean };

/**
 * Checks a call's arguments before anything is rendered, confirmed or sent (docs/architecture.md §8):
 * one flat object of the operation's parameters by wire name and `body`; no unknown keys; required
 * ones present; parameters scalar (a query parameter may repeat as an array); header values on one
 * line; no path parameter that would make an empty or dot segment (URL parsing removes those, so
 * DELETE /items/.. would reach the collection); a body that is plain JSON. An argument set to
 * undefined is absent. The first problem wins; its received_value is redacted when sensitive.
 */
export function preflightArgs(operation: OperationDescriptor, raw: unknown): PreflightResult {
  const problem = findProblem(operation, raw);
  if (problem === undefined) return { ok: true, args: withoutUndefined(raw ?? {}) as CallArgs };
  return {
    ok: false,
    envelope: transportEnvelope(problem.code, {
      operation: operation.id,
      failed_parameter: problem.path,
      ...(problem.hasValue ? { received_value: problem.value } : {}),
      sensitive: problem.path !== undefined && isSensitivePath(operation, problem.path),
      expected: problem.expected,
      remediation: problem.remediation,
    }),
  };
}

function findProblem(operation: OperationDescriptor, raw: unknown): Problem | undefined {
  if (raw !== undefined && !isPlainObject(raw)) {
    return { code: 'ARGS_INVALID', value: raw, hasValue: true, expected: 'an object', remediation: `Pass the arguments of ${operation.id} as one object: parameters by name, the request body under "body".` };
  }
  const args = Object.fromEntries(Object.entries(raw ?? {}).filter(([, value]) => value !== undefined));
  const known = new Set([...operation.params.map((param) => param.name), ...(operation.body === undefined ? [] : ['body'])]);
  for (const key of Object.keys(args)) {
    if (!known.has(key)) {
      const names = [...known].join(', ') || 'none';
      return { code: 'ARGS_INVALID', path: key, value: args[key], hasValue: true, expected: `one of: ${names}`, remediation: `${operation.id} has no argument "${key}". Use only: ${names}.` };
    }
  }
  for (const param of operation.params) {
    const found = checkParam(operation, param, args[param.name]);
    if (found !== undefined) return found;
  }
  return checkBody(operation, args.body);
}

function checkParam(operation: OperationDescriptor, param: ParamDescriptor, value: unknown): Problem | undefined {
  const where = `${operation.id} ${param.in} parameter "${param.name}"`;
  if (value === undefined) {
    if (!param.required && param.in !== 'path') return undefined;
    return { code: 'PARAM_MISSING', path: param.name, hasValue: false, expected: 'a value', remediation: `Pass ${where}; it is required.` };
  }
  const values = param.in === 'query' && Array.isArray(value) ? value : [value];
  if (!values.every(isScalar)) {
    const expected = param.in === 'query' ? 'a string, number or boolean, or an array of them' : 'a string, number or boolean';
    return { code: 'ARGS_INVALID', path: param.name, value, hasValue: true, expected, remediation: `Pass ${where} as ${expected}.` };
  }
  if (param.in === 'header' && /[\r\n\0]/.test(String(value))) {
    return { code: 'ARGS_INVALID', path: param.name, value, hasValue: true, expected: 'one line of text', remediation: `Pass ${where} without line breaks.` };
  }
  if (param.in === 'path' && ['', '.', '..'].includes(String(value))) {
    return {
      code: 'PATH_SEGMENT_INVALID',
      path: param.name,
      value,
      hasValue: true,
      expected: 'a non-empty path segment other than "." and ".."',
      remediation: `Pass the identifier ${where} names: an empty or dot segment would address another resource.`,
    };
  }
  return undefined;
}

function checkBody(operation: OperationDescriptor, body: unknown): Problem | undefined {
  const declared = operation.body;
  if (declared === undefined) return undefined;
  if (body === undefined) {
    if (!declared.required) return undefined;
    return { code: 'PARAM_MISSING', path: 'body', hasValue: false, expected: 'a request body', remediation: `Pass the request body of ${operation.id} under "body"; it is required.` };
  }
  if (declared.mediaType === 'application/x-www-form-urlencoded') {
    if (!isPlainObject(body)) return { code: 'ARGS_INVALID', path: 'body', value: body, hasValue: true, expected: 'an object of form fields', remediation: `Pass the form fields of ${operation.id} as one object under "body".` };
    for (const [key, value] of Object.entries(body)) {
      const values = Array.isArray(value) ? value : [value];
      if (value !== undefined && !values.every(isScalar)) {
        return { code: 'ARGS_INVALID', path: `body.${key}`, value, hasValue: true, expected: 'a string, number or boolean, or an array of them', remediation: `Form field "${key}" of ${operation.id} must be a scalar or an array of scalars.` };
      }
    }
    return undefined;
  }
  const bad = nonJson(body, 'body', new Set());
  if (bad === undefined) return undefined;
  return { code: 'ARGS_INVALID', path: bad, value: String(typeof valueAt(body, bad)), hasValue: true, expected: 'JSON: objects, arrays, strings, finite numbers, booleans, null', remediation: `The body of ${operation.id} at ${bad} is not JSON; pass plain data.` };
}

/** The path of the first value that has no JSON form (a function, a bigint, NaN, a cycle, a class instance). */
function nonJson(value: unknown, path: string, seen: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (typeof value !== 'object') return path;
  if (seen.has(value)) return path;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const bad = item === undefined ? `${path}[${index}]` : nonJson(item, `${path}[${index}]`, seen);
      if (bad !== undefined) return bad;
    }
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const bad = item === undefined ? undefined : nonJson(item, `${path}.${key}`, seen);
      if (bad !== undefined) return bad;
    }
  } else return path;
  seen.delete(value);
  return undefined;
}

function valueAt(body: unknown, path: string): unknown {
  let current: unknown = { body };
  for (const part of path.match(/[^.[\]]+/g) ?? []) current = (current as Record<string, unknown> | undefined)?.[part];
  return current;
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy without object entries whose value is undefined (at every depth; arrays keep their length). */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => [key, withoutUndefined(item)]));
}
