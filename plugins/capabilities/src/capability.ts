import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { SandboxGrants } from '@nodwyn/plugin-api/sandbox';
import type { RunnerId } from './config.js';

/** One example: args, and either the exact output expected or a predicate over the output. */
export interface Example {
  readonly args: Readonly<Record<string, unknown>>;
  /** The output, compared as canonical JSON. */
  readonly expect?: unknown;
  /** JavaScript of a function `(output, args) => boolean`, run in the sandbox. */
  readonly check?: string;
}

/** What makes a capability what it is; its hash covers exactly this. */
export interface CapabilityContent {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
  /** The TypeScript the author wrote. */
  readonly code: string;
  readonly grants: SandboxGrants;
  readonly runner: RunnerId;
  readonly examples: readonly Example[];
}

/** `active` runs; `disabled` and `removed` are versions a person made to stop it. */
export type CapabilityStatus = 'active' | 'disabled' | 'removed';

/** One admitted version, as stored. Versions are never changed or deleted. */
export interface CapabilityVersion extends CapabilityContent {
  readonly version: number;
  readonly status: CapabilityStatus;
  /** The code with its types stripped, as the sandbox runs it. */
  readonly compiled: string;
  /** sha256 of the canonical JSON of the content and the compiled code. */
  readonly hash: string;
  /** The model that wrote it (`provider/model`), or `person`. */
  readonly author: string;
  /** The session it was registered in; absent for a person's command. */
  readonly session?: string;
  readonly created: string;
  /** Why a person made this version (disable, rm). */
  readonly note?: string;
}

/** Which version of a capability is current, and its status (so counting needs no version read). */
export interface CapabilityHead {
  readonly current: number;
  readonly latest: number;
  readonly status: CapabilityStatus;
}

/**
 * The hash that identifies a version: its content and the compiled code the sandbox runs, so neither
 * can be edited in the database without the version failing its check.
 */
export function contentHash(content: CapabilityContent & { readonly compiled: string }): string {
  const { name, description, input_schema, code, compiled, grants, runner, examples } = content;
  const text = canonicalize({ name, description, input_schema, code, compiled, grants: normalGrants(grants), runner, examples }) ?? '';
  return createHash('sha256').update(text).digest('hex');
}

/** Grants in one spelling: no false flags, hosts sorted and unique. */
export function normalGrants(grants: SandboxGrants): SandboxGrants {
  const net = [...new Set(grants.net ?? [])].sort();
  return { ...(grants.read ? { read: true } : {}), ...(grants.write ? { write: true } : {}), ...(net.length > 0 ? { net } : {}) };
}

/** What `next` may do that `previous` could not (a new runner counts: it contains differently). */
export function widenedGrants(previous: CapabilityContent | undefined, next: CapabilityContent): string[] {
  const was = previous ? normalGrants(previous.grants) : {};
  const now = normalGrants(next.grants);
  const wider: string[] = [];
  if (now.read && !was.read) wider.push('read');
  if (now.write && !was.write) wider.push('write');
  for (const host of now.net ?? []) if (!(was.net ?? []).includes(host)) wider.push(`net:${host}`);
  if (previous && previous.runner !== next.runner) wider.push(`runner:${next.runner}`);
  if (!previous && next.runner !== 'quickjs') wider.push(`runner:${next.runner}`);
  return wider;
}

/** A short line describing the grants, for listings. */
export function describeGrants(grants: SandboxGrants): string {
  const g = normalGrants(grants);
  const parts = [g.read ? 'read' : '', g.write ? 'write' : '', ...(g.net ?? []).map((h) => `net:${h}`)].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'none';
}
