import { z } from 'zod';

/**
 * What a plugin may ask the host for. The host enforces `log.read` (the context's log view throws
 * without it) and the permission a service token names (`secrets.reveal` for the keychain); the others
 * are declared for people to review in `nodwyn plugins` and for the sandboxed
 * and egress layers that check them.
 */
export const PERMISSIONS = ['log.read', 'fs.read', 'fs.write', 'process.spawn', 'net', 'secrets.reveal'] as const;
/** A plugin permission. */
export type Permission = (typeof PERMISSIONS)[number];

/** Kinds of contribution a plugin can provide or require, as `kind:name`. */
export const CONTRIBUTION_KINDS = ['primitive', 'primitive-source', 'provider', 'loop', 'guard-stage', 'command', 'service', 'frontend', 'agent-command', 'context', 'plugin'] as const;
/** A contribution kind. */
export type ContributionKind = (typeof CONTRIBUTION_KINDS)[number];

const contribution = z
  .string()
  .regex(/^(primitive|primitive-source|provider|loop|guard-stage|command|service|frontend|agent-command|context|plugin):[@a-z0-9_./-]+$/, 'kind:name, e.g. primitive:read_file');

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * A plugin's manifest. `provides` and `requires` are `kind:name` strings (`primitive:read_file`,
 * `provider:scripted`, `loop:default`, `frontend:tui`, `agent-command:capabilities`, `context:workspace`, `plugin:@nodwyn/plugin-keychain`); the host orders plugins by
 * `requires` and checks that what a plugin registered matches `provides` exactly.
 */
export const ManifestSchema = z
  .object({
    name: z.string().regex(/^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]*$/, 'an npm package name'),
    version: z.string().regex(SEMVER, 'a semver version such as 1.2.3'),
    apiVersion: z.string().min(1),
    description: z.string().optional(),
    provides: z.array(contribution).default([]),
    requires: z.array(contribution).default([]),
    permissions: z.array(z.enum(PERMISSIONS)).default([]),
    /**
     * This plugin's config section (`[plugins."<name>"]`) comes from the person's own config only: a
     * repository's section for it is ignored with a notice, even once the repository is trusted. Set it
     * when the section holds secrets, decides where they may go, or shapes a sandbox, so that a cloned
     * repository cannot widen exactly what the plugin protects.
     */
    userOnlyConfig: z.boolean().default(false),
  })
  .strict();

/** A manifest as written by a plugin author. */
export type ManifestInput = z.input<typeof ManifestSchema>;
/** A validated manifest. */
export type Manifest = z.output<typeof ManifestSchema>;
