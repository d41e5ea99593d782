import type { ConfirmationSubject, EgressPosition, Envelope } from '@nodwyn/plugin-api';
import type { Destination } from './destination.js';
import { egressEnvelope } from './errors.js';
import { formatPosition } from './position.js';

/** Where a class travels: a value position, the URL or a name (never bindable), or the whole request. */
export type Carrier = { readonly kind: 'value'; readonly position: EgressPosition } | { readonly kind: 'url' } | { readonly kind: 'request' };

/** One class found on its way out, and how it was found. */
export interface Carried {
  readonly class: string;
  readonly source: 'handle' | 'taint';
  /** The handle's secret name (a name, never a value). */
  readonly secret?: string;
  readonly carrier: Carrier;
  /** Found because a value matched a remembered secret (`TaintTracker.matches`): a probe's answer. */
  readonly matched?: true;
}

/** The destination as events and reasons show it; hidden when the URL itself carries a tainted value. */
export interface DestinationView {
  readonly scheme: string;
  readonly host: string;
  readonly path: string;
  readonly method: string;
  /** The host, path and every position name are hidden: one of them holds a tainted value. */
  readonly hidden?: true;
}

/** The stage's decision about one class in one place. */
export interface Decision {
  readonly class?: string;
  readonly secret?: string;
  readonly source?: 'handle' | 'taint';
  readonly destination?: DestinationView;
  readonly position?: { readonly kind: string; readonly name: string };
  readonly decision: 'allow' | 'deny' | 'confirm';
  readonly reason: string;
  /** The deny envelope, or the `otherwise` of a confirm. */
  readonly envelope?: Envelope;
  /** The class was found by matching a remembered secret value (see `Carried.matched`). */
  readonly matched?: true;
}

const PATH_SHOWN = 120;

/** The destination as shown; a tainted URL or name hides it all, since showing it would show the value. */
export function viewOf(destination: Destination, tainted: boolean): DestinationView {
  if (tainted) return { scheme: destination.scheme, host: '[hidden]', path: '', method: destination.method, hidden: true };
  const path = destination.path.length > PATH_SHOWN ? `${destination.path.slice(0, PATH_SHOWN)}…` : destination.path;
  return { scheme: destination.scheme, host: destination.host, path, method: destination.method };
}

/** The destination as a person is asked about it: `METHOD host/path`, or `[hidden]` when the URL carries the value. */
export function shownDestination(view: DestinationView): string {
  return view.hidden ? '[hidden]' : `${view.method} ${view.host}${view.path}`;
}

/** Each class and destination the decisions name, once: what a confirmation shows, never a value. */
export function subjectsOf(decisions: readonly Decision[]): ConfirmationSubject[] {
  const seen = new Map<string, ConfirmationSubject>();
  for (const d of decisions) {
    if (d.class === undefined || d.destination === undefined) continue;
    const subject = { class: d.class, destination: shownDestination(d.destination) };
    seen.set(`${subject.class}\n${subject.destination}`, subject);
  }
  return [...seen.values()];
}

/** The position as events show it. */
export function positionOf(carrier: Carrier, view?: DestinationView): { kind: string; name: string } {
  if (carrier.kind === 'value') return { kind: carrier.position.kind, name: view?.hidden ? '[hidden]' : carrier.position.name };
  return carrier.kind === 'url' ? { kind: 'url', name: 'url' } : { kind: 'request', name: '*' };
}

function where(carrier: Carrier, view: DestinationView): string {
  if (carrier.kind === 'value') return view.hidden ? `a ${carrier.position.kind} value` : formatPosition(carrier.position);
  return carrier.kind === 'url' ? 'the URL or a header, parameter or field name' : 'the request';
}

/** The command that would allow a class at a destination and position. */
export function bindCommand(cls: string, view: DestinationView, carrier: Carrier): string {
  const position = carrier.kind === 'value' && !view.hidden ? formatPosition(carrier.position) : '<header:NAME|query:NAME|body:$.path|basic>';
  return `nodwyn bind add ${cls} --host ${view.host} --position ${position} --method ${view.method}`;
}

/** A class that may go where it goes. */
export function allowed(carried: Carried, view: DestinationView): Decision {
  const reason = `${carried.class} is bound to ${view.host}${view.path} for ${view.method} in ${where(carried.carrier, view)}`;
  return { ...base(carried, view), decision: 'allow', reason };
}

/** A class the binding table does not allow there: a person may confirm; nobody there means this deny. */
export function unbound(carried: Carried, view: DestinationView, operation: string): Decision {
  const reason = `send a ${carried.class} secret to ${view.host}${view.path} in ${where(carried.carrier, view)} (${view.method})`;
  const fix =
    carried.carrier.kind === 'url' || view.hidden
      ? 'A secret in the URL or in a name cannot be bound; put it in a header, query, body or basic_auth value the user has bound.'
      : `If the user wants to allow it, they can run: ${bindCommand(carried.class, view, carried.carrier)}`;
  const env = egressEnvelope('GUARD_EGRESS_UNBOUND', {
    operation,
    expected: `a binding of ${carried.class} to ${view.host}${view.path} for ${view.method} in ${where(carried.carrier, view)}`,
    remediation: `A ${carried.class} secret may not be sent to ${view.host}${view.path} in ${where(carried.carrier, view)} (${view.method}): the class is not bound there and nobody confirmed it. Do not retry the same request. ${fix}`,
    ...(carried.carrier.kind === 'url' || view.hidden ? {} : { next_action: bindCommand(carried.class, view, carried.carrier) }),
  });
  return { ...base(carried, view), decision: 'confirm', reason, envelope: env };
}

/** A class refused over plain http to a host that is not loopback. */
export function insecure(carried: Carried, view: DestinationView, operation: string): Decision {
  const reason = `a ${carried.class} secret may not travel over plain http to ${view.host}`;
  const env = egressEnvelope('GUARD_EGRESS_INSECURE', {
    operation,
    remediation: `The request would send a ${carried.class} secret in clear text over http to ${view.host}. Use https. Only loopback hosts are exempt, unless the user sets policy.allow_insecure_http = true in config.toml.`,
  });
  return { ...base(carried, view), decision: 'deny', reason, envelope: env };
}

/** A handle that names no secret. */
export function unknownSecret(name: string, carrier: Carrier, view: DestinationView, operation: string): Decision {
  const env = egressEnvelope('SECRET_UNKNOWN', {
    operation,
    received_value: name,
    remediation: `There is no secret named "${name}" in the keychain. Use the handle of a secret the user stored ({{secret:NAME}}), or ask the user to add this one.`,
  });
  return { secret: name, source: 'handle', destination: view, position: positionOf(carrier, view), decision: 'deny', reason: `no secret named ${name} in the keychain`, envelope: env };
}

function base(carried: Carried, view: DestinationView) {
  return {
    class: carried.class,
    source: carried.source,
    ...(carried.matched ? { matched: true as const } : {}),
    ...(carried.secret === undefined ? {} : { secret: carried.secret }),
    destination: view,
    position: positionOf(carried.carrier, view),
  };
}
