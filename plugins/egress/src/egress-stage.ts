import { EnvelopeError, isEnvelopeError, type CheckStage, type EgressTarget, type GuardCall, type Keychain, type SecretInfo, type TaintTracker, type Verdict } from '@nodwyn/plugin-api';
import { isBound, type BindingTable } from './binding-table.js';
import { allowed, insecure, positionOf, subjectsOf, unbound, unknownSecret, viewOf, type Carried, type Carrier, type Decision, type DestinationView } from './decisions.js';
import { destinationOf, isLoopback, isSecure, type Destination } from './destination.js';
import { egressEnvelope, PLUGIN_NAME } from './errors.js';
import { handlesIn } from './secrets.js';

/** What the stage reads, each at check time, so a binding added in another terminal counts on the next call. */
export interface EgressStageDeps {
  readonly keychain: () => Keychain;
  /** The L2 tracker, or undefined when no plugin provides one (then only `call.taint` counts). */
  readonly tracker: () => TaintTracker | undefined;
  readonly bindings: () => BindingTable;
  /** `policy.allow_insecure_http` from the user's config. */
  readonly allowInsecureHttp: boolean;
  /** Appends an `egress.decided` event. */
  readonly record: (session: string, payload: Record<string, unknown>) => void;
}

const ALLOW: Verdict = { kind: 'allow' };

/** What the decisions read of a call: a guarded call, or the redirect hop of one. */
type CallFacts = Pick<GuardCall, 'session' | 'name' | 'taint'>;

/** Lookups shared by every target of one call. */
interface CallScope {
  readonly call: CallFacts;
  readonly table: BindingTable;
  readonly tracker: TaintTracker | undefined;
  info(name: string): Promise<SecretInfo | undefined>;
}

function scopeOf(call: CallFacts, deps: EgressStageDeps): CallScope {
  const infos = new Map<string, Promise<SecretInfo | undefined>>();
  let keychain: Keychain | undefined;
  return {
    call,
    table: deps.bindings(),
    tracker: deps.tracker(),
    info(name) {
      keychain ??= deps.keychain();
      const known = infos.get(name) ?? keychain.info(name);
      infos.set(name, known);
      return known;
    },
  };
}

/** Every class the target carries, where it carries it; unknown handles become decisions right away. */
async function carriedBy(target: EgressTarget, structural: readonly Carried[], scope: CallScope, view: DestinationView, early: Decision[]): Promise<Carried[]> {
  const { call, tracker } = scope;
  const carried: Carried[] = [...structural];
  for (const position of target.positions) {
    const carrier = { kind: 'value', position } as const;
    for (const name of handlesIn(position.value)) {
      const info = await scope.info(name);
      if (info) carried.push({ class: info.class, source: 'handle', secret: name, carrier });
      else early.push(unknownSecret(name, carrier, view, call.name));
    }
    carried.push(...taintedBy(tracker, call, position.value, carrier), ...call.taint.map((cls) => ({ class: cls, source: 'taint' as const, carrier })));
  }
  // Taint on a request with no values can only sit in its URL: the destination as a whole must be bound.
  if (target.positions.length === 0) carried.push(...call.taint.map((cls) => ({ class: cls, source: 'taint' as const, carrier: { kind: 'request' as const } })));
  const seen = new Set<string>();
  return carried.filter((c) => {
    const key = `${c.class}\n${JSON.stringify(positionOf(c.carrier))}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The classes a text carries by the tracker, each marked `matched` when a remembered value (not an L1
 * placeholder) was found: the kernel counts a refusal of those as a strike, since refused-or-sent tells a
 * probing model whether its string matched a secret.
 */
function taintedBy(tracker: TaintTracker | undefined, call: CallFacts, text: string, carrier: Carrier): Carried[] {
  if (!tracker) return [];
  const matched = new Set(tracker.matches(call.session, text));
  return tracker.tagsOf(call.session, text).map((cls) => ({ class: cls, source: 'taint' as const, carrier, ...(matched.has(cls) ? { matched: true as const } : {}) }));
}

function judge(carried: Carried, destination: Destination, view: DestinationView, scope: CallScope, allowInsecureHttp: boolean): Decision {
  if (!isSecure(destination) && !isLoopback(destination.hostname) && !allowInsecureHttp) return insecure(carried, view, scope.call.name);
  const { carrier } = carried;
  const bound = carrier.kind !== 'url' && isBound(scope.table, carried.class, destination, carrier.kind === 'value' ? carrier.position : undefined);
  return bound ? allowed(carried, view) : unbound(carried, view, scope.call.name);
}

async function decideTarget(target: EgressTarget, scope: CallScope, deps: EgressStageDeps): Promise<Decision[]> {
  const destination = URL.canParse(target.url) ? destinationOf(new URL(target.url), target.method) : undefined;
  if (!destination) {
    const env = egressEnvelope('EGRESS_TARGET_INVALID', {
      operation: scope.call.name,
      remediation: `${scope.call.name} described a request whose URL the egress stage cannot check (an absolute http, https, ws or wss URL with a host is needed), so it was not sent.`,
    });
    return [{ decision: 'deny', reason: 'the request URL cannot be checked', envelope: env }];
  }
  // A value spelled into the host, path or a name cannot be bound to a position: it is its own carrier.
  const names = [destination.host + destination.path, ...target.positions.map((p) => p.name)].join('\n');
  const structural = taintedBy(scope.tracker, scope.call, names, { kind: 'url' });
  const view = viewOf(destination, structural.length > 0);
  const early: Decision[] = [];
  const carried = await carriedBy(target, structural, scope, view, early);
  return [...early, ...carried.map((c) => judge(c, destination, view, scope, deps.allowInsecureHttp))];
}

/** The call's verdict: any deny wins; otherwise any unbound class asks a person, naming each once. */
function verdictOf(decisions: readonly Decision[]): Verdict {
  const strike = decisions.some((d) => d.decision !== 'allow' && d.matched) ? { strike: true } : {};
  const deny = decisions.find((d) => d.decision === 'deny');
  if (deny?.envelope) return { kind: 'deny', envelope: deny.envelope, ...strike };
  const confirms = decisions.filter((d) => d.decision === 'confirm');
  if (confirms.length === 0) return ALLOW;
  // Every decision here is about a secret (a handle or a tainted value): only a person may let it go.
  const reason = [...new Set(confirms.map((d) => d.reason))].join('; ');
  const subjects = subjectsOf(confirms);
  return {
    kind: 'confirm',
    security: true,
    reason,
    ...(subjects.length > 0 ? { subjects } : {}),
    ...(confirms[0]!.envelope ? { otherwise: confirms[0]!.envelope } : {}),
    ...strike,
  };
}

function eventOf(decision: Decision, callId: string): Record<string, unknown> {
  const { envelope: env, ...shown } = decision;
  return { ...shown, ...(env ? { code: env.code } : {}), call_id: callId };
}

/** A dependency failed: deny with its envelope (or a generic one; a foreign message may quote anything). */
function failClosed(call: CallFacts & { readonly id: string }, error: unknown, deps: EgressStageDeps): Extract<Verdict, { kind: 'deny' }> {
  const env = isEnvelopeError(error)
    ? { ...error.envelope, plugin: error.envelope.plugin ?? PLUGIN_NAME }
    : egressEnvelope('EGRESS_CHECK_FAILED', {
        operation: call.name,
        remediation: 'The egress check could not complete (a keychain, taint or binding lookup failed), so the request was not sent. Retry once; if it fails again, tell the user.',
      });
  deps.record(call.session, { decision: 'deny', reason: `the egress check failed (${env.code})`, code: env.code, call_id: call.id });
  return { kind: 'deny', envelope: env };
}

/**
 * The egress edge: a request that carries a secret (a `{{secret:NAME}}` handle, or a value the taint
 * tracker knows) passes only where the binding table binds its class. Every decision about a class is
 * logged as `egress.decided`; a request that carries none passes unlogged.
 */
export function createEgressStage(deps: EgressStageDeps): CheckStage {
  return {
    name: 'egress-bindings',
    slot: 'egress',
    async check(call) {
      if (call.targets.length === 0) return ALLOW;
      let decisions: Decision[];
      try {
        const scope = scopeOf(call, deps);
        decisions = [];
        for (const target of call.targets) decisions.push(...(await decideTarget(target, scope, deps)));
      } catch (error) {
        return failClosed(call, error, deps);
      }
      for (const decision of decisions) deps.record(call.session, eventOf(decision, call.id));
      return verdictOf(decisions);
    },
  };
}

/** The call a redirect hop belongs to. */
export interface HopCall extends CallFacts {
  readonly id: string;
}

/**
 * Checks a redirect hop (a same-origin path, and maybe method, the guard did not see) with the stage's
 * own decisions, logged with `hop: true`. Returns undefined when everything the hop carries is bound
 * there, otherwise why not; nobody is asked mid-request, so a hop that is not bound is not followed.
 */
export type HopCheck = (call: HopCall, target: EgressTarget) => Promise<string | undefined>;

/** The hop check over the same bindings, keychain and tracker as the stage. */
export function createHopCheck(deps: EgressStageDeps): HopCheck {
  return async (call, target) => {
    let decisions: Decision[];
    try {
      decisions = await decideTarget(target, scopeOf(call, deps), deps);
    } catch (error) {
      throw new EnvelopeError(failClosed(call, error, deps).envelope, { cause: error });
    }
    for (const decision of decisions) deps.record(call.session, { ...eventOf(decision, call.id), hop: true });
    const refused = decisions.filter((d) => d.decision !== 'allow');
    return refused.length === 0 ? undefined : [...new Set(refused.map((d) => d.reason))].join('; ');
  };
}
