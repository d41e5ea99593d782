import { SECRET_HANDLE, type EgressSituation, type EgressTarget, type GuardCall } from '@nodwyn/plugin-api';

const READS = new Set(['GET', 'HEAD']);

/**
 * Whether a call is the situation seam C is for: the model's own egress call that carries no secret
 * handle and no taint (those the binding table decides), so data is leaving for a destination nobody
 * bound or refused.
 */
export function isAmbiguousEgress(call: GuardCall): boolean {
  if (call.origin !== 'model' || !call.egress || call.targets.length === 0 || call.taint.length > 0) return false;
  const handle = new RegExp(SECRET_HANDLE.source);
  return !call.targets.some((t) => handle.test(t.url) || t.positions.some((p) => handle.test(p.name) || handle.test(p.value)));
}

/** The targets worth a judge's look: a GET or HEAD without any value to carry sends nothing but its URL. */
export function scoredTargets(call: GuardCall): readonly EgressTarget[] {
  return call.targets.filter((t) => !(READS.has(t.method.toUpperCase()) && t.positions.length === 0));
}

/**
 * Class, destination and scope of one target, never a value: the destination is the host and the first
 * path segment only, because the rest of a path can carry data. Undefined when the URL cannot be read.
 */
export function situationOf(call: GuardCall, target: EgressTarget): EgressSituation | undefined {
  if (!URL.canParse(target.url)) return undefined;
  const url = new URL(target.url);
  if (url.host === '') return undefined;
  const first = url.pathname.split('/').find((segment) => segment.length > 0);
  return {
    session: call.session,
    classes: ['none'],
    destination: `${url.host}${first ? `/${first}` : ''}`,
    scope: `${target.method.toUpperCase()} via ${call.name} (${call.tier})`,
  };
}
