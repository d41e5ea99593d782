import type { Tier } from '@nodwyn/plugin-api';
import type { ErrorMapping, OperationDescriptor, ParamDescriptor, VerifyDescriptor } from '@nodwyn/plugin-api/transport';
import type { XAgent } from './x-agent.js';

/** GET/HEAD read, POST/PUT/PATCH mutate, DELETE destructive; `x-agent.tier` overrides. */
export function tierOf(method: string, xAgent: XAgent): Tier {
  if (xAgent.tier) return xAgent.tier;
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD') return 'read';
  return upper === 'DELETE' ? 'destructive' : 'mutate';
}

/** What `descriptorOf` is built from. */
export interface DescriptorParts {
  readonly id: string;
  readonly method: string;
  readonly url: string;
  readonly params: readonly ParamDescriptor[];
  readonly body: OperationDescriptor['body'];
  readonly description: string;
  readonly xAgent: XAgent;
  /** Paths of body properties marked `x-agent-sensitive`. */
  readonly sensitive: readonly string[];
  readonly stream: boolean;
  /** operationId → descriptor id, to name the verification read. */
  readonly ids: ReadonlyMap<string, string>;
}

type Mapping = NonNullable<XAgent['errors']>['non_json'];

function mapping(entry: NonNullable<Mapping>): ErrorMapping {
  return { category: entry.category, ...(entry.retryable ? { retryable: entry.retryable } : {}), ...(entry.remediation ? { remediation: entry.remediation } : {}) };
}

function table(entries: Readonly<Record<string, NonNullable<Mapping>>> | undefined): Record<string, ErrorMapping> | undefined {
  return entries ? Object.fromEntries(Object.entries(entries).map(([key, entry]) => [key, mapping(entry)])) : undefined;
}

function verifyOf(xAgent: XAgent, ids: ReadonlyMap<string, string>): VerifyDescriptor | undefined {
  const verify = xAgent.verify;
  if (!verify) return undefined;
  return {
    operation: ids.get(verify.operation) ?? verify.operation,
    args: verify.args,
    ...(verify.expect ? { expect: verify.expect } : {}),
    ...(verify.terminal ? { terminal: verify.terminal } : {}),
    ...(verify.budget_ms ? { budgetMs: verify.budget_ms } : {}),
    ...(verify.interval_ms ? { intervalMs: verify.interval_ms } : {}),
  };
}

/** The runtime's operation descriptor (contract A) of one mapped operation, with its `x-agent` entries. */
export function descriptorOf(parts: DescriptorParts): OperationDescriptor {
  const { xAgent } = parts;
  const named = new Set(xAgent.sensitive ?? []);
  const params = parts.params.map((param) => (named.has(param.name) ? { ...param, sensitive: true } : param));
  const sensitive = [...new Set([...parts.sensitive, ...(xAgent.sensitive ?? [])])];
  const errors = xAgent.errors;
  const verify = verifyOf(xAgent, parts.ids);
  return {
    id: parts.id,
    method: parts.method,
    url: parts.url,
    params,
    ...(parts.body ? { body: parts.body } : {}),
    tier: tierOf(parts.method, xAgent),
    ...(xAgent.idempotency ? { idempotency: xAgent.idempotency } : {}),
    ...(sensitive.length > 0 ? { sensitive } : {}),
    ...(parts.description ? { description: parts.description } : {}),
    ...(xAgent.confirmation
      ? { confirmation: { ...(xAgent.confirmation.message ? { message: xAgent.confirmation.message } : {}), ...(xAgent.confirmation.remediation_note ? { remediationNote: xAgent.confirmation.remediation_note } : {}) } }
      : {}),
    ...(verify ? { verify } : {}),
    ...(errors
      ? {
          errors: {
            ...(errors.ambiguous_statuses ? { ambiguousStatuses: errors.ambiguous_statuses } : {}),
            ...(errors.codes ? { codes: table(errors.codes) } : {}),
            ...(errors.statuses ? { statuses: table(errors.statuses) } : {}),
            ...(errors.non_json ? { nonJson: mapping(errors.non_json) } : {}),
          },
        }
      : {}),
    ...(parts.stream ? { stream: xAgent.stream?.done === undefined ? {} : { done: xAgent.stream.done } } : {}),
  };
}
