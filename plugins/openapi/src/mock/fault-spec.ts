import { openApiError } from '../errors.js';

/** One fault the mock injects (seed 003's mock injections). */
export type Fault =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drop-after'; readonly events: number; readonly retry?: number }
  | { readonly kind: 'stall-after'; readonly events: number; readonly ms: number; readonly retry?: number }
  | { readonly kind: 'reset' };

/** A fault with its scope: one operation (by operationId) or every request, `times` uses or unlimited. */
export interface FaultRule {
  readonly operation?: string;
  readonly fault: Fault;
  /** Uses left; undefined = unlimited. */
  remaining?: number;
}

const STALL_DEFAULT_MS = 30_000;

function invalid(spec: string, why: string): Error {
  return openApiError('MOCK_INJECT_INVALID', {
    operation: 'mock.inject',
    failed_parameter: 'inject',
    received_value: spec,
    expected: '[operationId:]status=CODE[;retry-after=S] | delay=MS | drop-after=N[;retry=MS] | stall-after=N[;ms=MS][;retry=MS] | reset, each with an optional ;times=K',
    remediation: `The fault ${JSON.stringify(spec)} cannot be parsed: ${why}. See docs/openapi.md, "Faults".`,
  });
}

function count(spec: string, name: string, text: string | undefined, min = 0): number {
  if (text === undefined || !/^\d{1,9}$/.test(text) || Number(text) < min) throw invalid(spec, `${name} needs a whole number of at least ${min}`);
  return Number(text);
}

/**
 * Parses an injection: `createPet:reset;times=1`, `status=503;retry-after=2`, `drop-after=3;retry=100`.
 * The part before a colon scopes it to an operationId; `times=K` makes it apply K times.
 */
export function parseFault(spec: string): FaultRule {
  const scoped = /^([^=;:]+):(.+)$/.exec(spec.trim());
  const operation = scoped?.[1]?.trim();
  const [head = '', ...rest] = (scoped ? scoped[2]! : spec.trim()).split(';').map((part) => part.trim());
  const options = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw invalid(spec, `${JSON.stringify(part)} is not key=value`);
    options.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const [kind, value] = head.includes('=') ? [head.slice(0, head.indexOf('=')), head.slice(head.indexOf('=') + 1)] : [head, undefined];
  const optional = (name: string) => (options.has(name) ? count(spec, name, options.get(name)) : undefined);
  const allowed = (...names: string[]) => {
    for (const name of options.keys()) if (name !== 'times' && !names.includes(name)) throw invalid(spec, `${name} does not apply to ${kind}`);
  };
  let fault: Fault;
  if (kind === 'status') {
    allowed('retry-after');
    const status = count(spec, 'status', value, 100);
    if (status > 599) throw invalid(spec, 'status must be 100..599');
    const retryAfter = options.get('retry-after');
    fault = { kind, status, ...(retryAfter === undefined ? {} : { retryAfter }) };
  } else if (kind === 'delay') {
    allowed();
    fault = { kind, ms: count(spec, 'delay', value) };
  } else if (kind === 'drop-after') {
    allowed('retry');
    const retry = optional('retry');
    fault = { kind, events: count(spec, 'drop-after', value), ...(retry === undefined ? {} : { retry }) };
  } else if (kind === 'stall-after') {
    allowed('ms', 'retry');
    const retry = optional('retry');
    fault = { kind, events: count(spec, 'stall-after', value), ms: optional('ms') ?? STALL_DEFAULT_MS, ...(retry === undefined ? {} : { retry }) };
  } else if (kind === 'reset' && value === undefined) {
    allowed();
    fault = { kind: 'reset' };
  } else throw invalid(spec, `unknown fault ${JSON.stringify(head)}`);
  const times = optional('times');
  if (times === 0) throw invalid(spec, 'times must be at least 1');
  return { ...(operation ? { operation } : {}), fault, ...(times === undefined ? {} : { remaining: times }) };
}

/** The first rule that applies to `operation`, used once (and dropped when spent). */
export function takeFault(rules: FaultRule[], operation: string | undefined): Fault | undefined {
  const index = rules.findIndex((rule) => rule.operation === undefined || rule.operation === operation);
  if (index === -1) return undefined;
  const rule = rules[index]!;
  if (rule.remaining !== undefined) {
    rule.remaining -= 1;
    if (rule.remaining <= 0) rules.splice(index, 1);
  }
  return rule.fault;
}
