import type { PluginStore } from '@nodwyn/plugin-api';
import type { AdmissionProof } from './admission-proof.js';
import { contentHash, type CapabilityHead, type CapabilityStatus, type CapabilityVersion } from './capability.js';
import { capabilityError } from './errors.js';

/** Where registry changes are logged: the session they happened in, and what the event says. */
export type RegistryEvent = (type: string, payload: Readonly<Record<string, unknown>>) => void;

const HEAD = 'head/';
const VERSION = 'version/';

function versionKey(name: string, version: number): string {
  return `${VERSION}${name}/${String(version).padStart(8, '0')}`;
}

/**
 * The capability registry on the plugin's store in the kernel database. Every change is one transaction
 * that writes the new version, moves the head and appends the event that records it, so a process
 * killed half-way leaves the old state or the new one, never a mix.
 */
export class Registry {
  readonly #store: PluginStore;
  readonly #proof: AdmissionProof;

  /** `proof` ties each active version to its signed admission event (see `admissionProof`). */
  constructor(store: PluginStore, proof: AdmissionProof) {
    this.#store = store;
    this.#proof = proof;
  }

  head(name: string): CapabilityHead | undefined {
    return this.#store.get(`${HEAD}${name}`) as CapabilityHead | undefined;
  }

  /**
   * A stored version, checked against its hash and, when active, against its signed admission event:
   * what anything that runs or shows code reads. A row rewritten in the database, code and hash alike,
   * has no signed admission and is refused.
   */
  version(name: string, version: number): CapabilityVersion | undefined {
    const found = this.#read(name, version);
    if (!found) return undefined;
    if (contentHash(found) !== found.hash) throw tampered(name, version, 'does not match its hash');
    if (found.status === 'active' && !this.#proof(found)) throw tampered(name, version, 'has no signed admission in the log');
    return found;
  }

  /** The current version, whatever its status, checked against its hash. */
  current(name: string): CapabilityVersion | undefined {
    const head = this.head(name);
    return head ? this.version(name, head.current) : undefined;
  }

  /** The current version if it and its head say active, checked (see `version`): the only thing that ever executes. */
  runnable(name: string): CapabilityVersion | undefined {
    const head = this.head(name);
    const version = head?.status === 'active' ? this.version(name, head.current) : undefined;
    return version?.status === 'active' ? version : undefined;
  }

  /**
   * The current version if it is active, read without the hash check: for listings and tool lookups
   * only. Running it goes through `runnable`, which checks (and refuses an edited row).
   */
  listed(name: string): CapabilityVersion | undefined {
    const head = this.head(name);
    return head?.status === 'active' ? this.#read(name, head.current) : undefined;
  }

  /** The current version whatever its status, read without the hash check (what a new version follows). */
  peek(name: string): CapabilityVersion | undefined {
    const head = this.head(name);
    return head ? this.#read(name, head.current) : undefined;
  }

  /** Every version of a capability, oldest first. */
  history(name: string): CapabilityVersion[] {
    return this.#store.list(`${VERSION}${name}/`).map((entry) => entry.value as CapabilityVersion);
  }

  /** Names with a head, in code-unit order. */
  names(): string[] {
    return this.#heads().map(([name]) => name);
  }

  /** Every capability whose current version is active, as listed (see `listed`). */
  active(): CapabilityVersion[] {
    return this.#heads().flatMap(([name, head]) => {
      const version = head.status === 'active' ? this.#read(name, head.current) : undefined;
      return version ? [version] : [];
    });
  }

  /** How many capabilities are active, from the heads alone. */
  activeCount(): number {
    return this.#heads().filter(([, head]) => head.status === 'active').length;
  }

  #read(name: string, version: number): CapabilityVersion | undefined {
    return this.#store.get(versionKey(name, version)) as CapabilityVersion | undefined;
  }

  #heads(): [string, CapabilityHead][] {
    return this.#store.list(HEAD).map((entry) => [entry.key.slice(HEAD.length), entry.value as CapabilityHead]);
  }

  /**
   * Adds the next version and makes it current, in one transaction with its event. `check` runs inside
   * the transaction, against the registry as it is there (the count limit sees concurrent admissions).
   */
  admit(
    draft: Omit<CapabilityVersion, 'version' | 'hash' | 'created'>,
    event: RegistryEvent,
    check: (registry: Registry) => void = () => undefined,
  ): CapabilityVersion {
    return this.#store.transaction(() => {
      check(this);
      const head = this.head(draft.name);
      const version = (head?.latest ?? 0) + 1;
      const stored: CapabilityVersion = { ...draft, version, hash: contentHash(draft), created: new Date().toISOString() };
      this.#store.put(versionKey(draft.name, version), stored);
      this.#store.put(`${HEAD}${draft.name}`, { current: version, latest: version, status: draft.status } satisfies CapabilityHead);
      event(`capability.${draft.status === 'active' ? 'admitted' : draft.status}`, eventPayload(stored));
      return stored;
    });
  }

  /** Makes an earlier (or later) existing version current again, in one transaction with its event. */
  rollback(name: string, to: number, event: RegistryEvent): CapabilityVersion {
    return this.#store.transaction(() => {
      const head = this.head(name);
      const target = head ? this.version(name, to) : undefined;
      if (!head) throw notFound(name);
      if (!target) {
        throw capabilityError('CAPABILITY_VERSION_NOT_FOUND', {
          operation: 'capability.rollback',
          failed_parameter: '--to',
          received_value: to,
          expected: `a version from 1 to ${head.latest}`,
          remediation: `${name} has versions 1 to ${head.latest}; see \`nodwyn capability history ${name}\`.`,
        });
      }
      this.#store.put(`${HEAD}${name}`, { current: to, latest: head.latest, status: target.status } satisfies CapabilityHead);
      event('capability.rolled_back', { ...eventPayload(target), from: head.current });
      return target;
    });
  }

  /** A person's disable or rm: a new version with that status (the code kept), made current. */
  stop(name: string, status: Exclude<CapabilityStatus, 'active'>, note: string, event: RegistryEvent): CapabilityVersion {
    return this.#store.transaction(() => {
      const current = this.current(name);
      if (!current) throw notFound(name);
      const { version: _v, hash: _h, created: _c, session: _s, ...content } = current;
      return this.admit({ ...content, status, author: 'person', note }, event);
    });
  }
}

/** The event payload of a version: everything but the code (the store keeps that). */
function eventPayload(v: CapabilityVersion): Record<string, unknown> {
  return {
    name: v.name,
    version: v.version,
    status: v.status,
    hash: v.hash,
    grants: v.grants,
    runner: v.runner,
    author: v.author,
    ...(v.session ? { session: v.session } : {}),
    ...(v.note ? { note: v.note } : {}),
  };
}

function tampered(name: string, version: number, why: string) {
  return capabilityError('CAPABILITY_TAMPERED', {
    operation: 'capability.load',
    received_value: `${name} v${version}`,
    remediation: `The stored code of ${name} version ${version} ${why}: the registry was changed outside nodwyn, so it does not run. Roll back to another version with \`nodwyn capability rollback ${name} --to N\`, or remove it.`,
  });
}

/** No capability of that name exists. */
export function notFound(name: string) {
  return capabilityError('CAPABILITY_NOT_FOUND', {
    operation: 'capability',
    failed_parameter: '$.name',
    received_value: name,
    remediation: `No capability is named "${name}". Call list_capabilities (or run \`nodwyn capability list\`) to see them; register it first with register_capability.`,
  });
}
