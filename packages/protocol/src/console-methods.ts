import { z } from 'zod';
import { EnvelopeSchema } from './envelope.js';
import { LogEventSchema } from './log-event.js';

/**
 * The `_nodwyn/…` methods the consoles (the web console, the desktop app) use beyond a session's own:
 * the login link, the log, secrets, bindings, capabilities and settings (docs/frontends.md). Each is a
 * person's action through a client the person opened; none is offered to the model.
 */
export const CONSOLE_METHODS = {
  /** Request: a one-time link that logs a browser into the web console (spent on first use, short-lived). */
  loginLink: '_nodwyn/login-link',
  /** Request: a page of a session's log events, oldest first. */
  logEvents: '_nodwyn/log/events',
  /** Request: checks the hash chain of one session (or of the whole log), as `nodwyn log verify`. */
  logVerify: '_nodwyn/log/verify',
  /** Request: the keychain's secrets: names, classes, dates; never a value. */
  secretsList: '_nodwyn/secrets/list',
  /** Request: stores a secret in the keychain; its value goes there and nowhere else. */
  secretsAdd: '_nodwyn/secrets/add',
  /** Request: the egress bindings (which secret class may go to which destination). */
  bindingsList: '_nodwyn/bindings/list',
  /** Request: adds a binding. */
  bindingsAdd: '_nodwyn/bindings/add',
  /** Request: removes the bindings of a class (optionally only one host, or one host and path). */
  bindingsRemove: '_nodwyn/bindings/remove',
  /** Request: a workspace's capabilities. */
  capabilitiesList: '_nodwyn/capabilities/list',
  /** Request: every version of one capability, with its code. */
  capabilitiesHistory: '_nodwyn/capabilities/history',
  /** Request: makes an earlier version of a capability current. */
  capabilitiesRollback: '_nodwyn/capabilities/rollback',
  /** Request: disables a capability (the model no longer sees it). */
  capabilitiesDisable: '_nodwyn/capabilities/disable',
  /** Request: the settable sections of the person's config.toml, with what each key takes. */
  settingsGet: '_nodwyn/settings/get',
  /** Request: checks settings as `settings/set` would, without saving anything. */
  settingsValidate: '_nodwyn/settings/validate',
  /** Request: validates, saves the person's config.toml, and restarts the daemon's plugins with it. */
  settingsSet: '_nodwyn/settings/set',
} as const;

const sessionId = z.string().min(1).max(200);
const workspace = z.string().min(1).max(4096);
const name = z.string().min(1).max(200);

/** `_nodwyn/login-link` params. */
export const LoginLinkParamsSchema = z.object({}).passthrough().default({});
/** What `_nodwyn/login-link` answers: `http(s)://HOST:PORT/login?t=…`, valid once, for `expiresInMs`. */
export const LoginLinkResultSchema = z.object({ url: z.string().url(), expiresInMs: z.number().int().positive() });

/**
 * `_nodwyn/log/events` params: at most `limit` (default 200, at most 1000) events of `sessionId`, oldest
 * first: those right before `beforeSeq` when given (scrolling up), else those after `afterSeq` (default 0).
 */
export const LogEventsParamsSchema = z
  .object({
    sessionId,
    beforeSeq: z.number().int().positive().optional(),
    afterSeq: z.number().int().nonnegative().optional(),
    limit: z.number().int().positive().max(1000).optional(),
  })
  .passthrough();
/** What `_nodwyn/log/events` answers: the events, and the session's latest seq (`head`). */
export const LogEventsResultSchema = z.object({ events: z.array(LogEventSchema), head: z.number().int().nonnegative() });

/** `_nodwyn/log/verify` params: one session, or the whole log when `sessionId` is absent. */
export const LogVerifyParamsSchema = z.object({ sessionId: sessionId.optional() }).passthrough().default({});
/** What `_nodwyn/log/verify` answers: the verdict of `nodwyn log verify`, naming the first bad event. */
export const LogVerifyResultSchema = z.union([
  z.object({ ok: z.literal(true), sessions: z.number().int().nonnegative(), events: z.number().int().nonnegative() }),
  z.object({
    ok: z.literal(false),
    session: z.string(),
    seq: z.number().int().nonnegative(),
    problem: z.string(),
    detail: z.string(),
    sessions: z.number().int().nonnegative(),
    events: z.number().int().nonnegative(),
  }),
]);
/** The verdict of `_nodwyn/log/verify`. */
export type LogVerifyResult = z.infer<typeof LogVerifyResultSchema>;

/** One secret of the keychain as a console shows it: never its value. */
export const SecretInfoSchema = z.object({ name: z.string(), class: z.string(), created: z.string(), lastUsed: z.string().nullable() });
/** One secret of the keychain as a console shows it. */
export type SecretInfo = z.infer<typeof SecretInfoSchema>;
/** `_nodwyn/secrets/list` params. */
export const SecretsListParamsSchema = z.object({}).passthrough().default({});
/** What `_nodwyn/secrets/list` answers. */
export const SecretsListResultSchema = z.object({ secrets: z.array(SecretInfoSchema) });
/** `_nodwyn/secrets/add` params: `force` replaces a secret of that name. */
export const SecretsAddParamsSchema = z
  .object({ name, class: z.string().min(1).max(100), value: z.string().min(1).max(65_536), force: z.boolean().optional() })
  .passthrough();
/** What `_nodwyn/secrets/add` answers: never the value. */
export const SecretsAddResultSchema = z.object({ name: z.string(), class: z.string() });

/** One egress binding: where secrets of `class` may be sent, in which positions, with which methods. */
export const BindingSchema = z.object({
  class: z.string(),
  host: z.string(),
  path: z.string().optional(),
  position: z.array(z.string()),
  method: z.array(z.string()),
});
/** One egress binding. */
export type Binding = z.infer<typeof BindingSchema>;
/** `_nodwyn/bindings/list` params. */
export const BindingsListParamsSchema = z.object({}).passthrough().default({});
/** What `_nodwyn/bindings/list` answers. */
export const BindingsListResultSchema = z.object({ bindings: z.array(BindingSchema) });
/** `_nodwyn/bindings/add` params. */
export const BindingsAddParamsSchema = z
  .object({
    class: z.string().min(1).max(100),
    host: z.string().min(1).max(300),
    path: z.string().max(2048).optional(),
    position: z.array(z.string().min(1).max(300)).min(1).max(20),
    method: z.array(z.string().min(1).max(20)).min(1).max(20),
  })
  .passthrough();
/** What `_nodwyn/bindings/add` answers: the bindings after the change. */
export const BindingsAddResultSchema = BindingsListResultSchema;
/** `_nodwyn/bindings/remove` params. */
export const BindingsRemoveParamsSchema = z
  .object({ class: z.string().min(1).max(100), host: z.string().min(1).max(300).optional(), path: z.string().max(2048).optional() })
  .passthrough();
/** What `_nodwyn/bindings/remove` answers: the bindings after the change. */
export const BindingsRemoveResultSchema = BindingsListResultSchema;

/** One capability as `nodwyn capability list --json` prints it (its code is in its history). */
export const CapabilityInfoSchema = z.object({ name: z.string() }).passthrough();
/** `_nodwyn/capabilities/list` params. */
export const CapabilitiesListParamsSchema = z.object({ workspace }).passthrough();
/** What `_nodwyn/capabilities/list` answers. */
export const CapabilitiesListResultSchema = z.object({ capabilities: z.array(CapabilityInfoSchema) });
/** One version of a capability, with its code, as `nodwyn capability history --json` prints it. */
export const CapabilityVersionSchema = z.object({ version: z.number().int().positive(), code: z.string(), current: z.boolean() }).passthrough();
/** `_nodwyn/capabilities/history` params. */
export const CapabilitiesHistoryParamsSchema = z.object({ workspace, name }).passthrough();
/** What `_nodwyn/capabilities/history` answers: every version, oldest first. */
export const CapabilitiesHistoryResultSchema = z.object({ name: z.string(), versions: z.array(CapabilityVersionSchema) });
/** `_nodwyn/capabilities/rollback` params: make version `to` current. */
export const CapabilitiesRollbackParamsSchema = z.object({ workspace, name, to: z.number().int().positive() }).passthrough();
/** `_nodwyn/capabilities/disable` params. */
export const CapabilitiesDisableParamsSchema = z.object({ workspace, name }).passthrough();
/** What rollback and disable answer: the capability's list row after the change. */
export const CapabilityChangeResultSchema = z.object({ capability: CapabilityInfoSchema });

/** What one settable key takes, for a console's form. */
export const SettingFieldSchema = z.object({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'enum']),
  description: z.string(),
  options: z.array(z.string()).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});
/** The settable sections: `section → key → value` (a key left out is unset). */
export const SettingsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
/** Settings as `section → key → value`. */
export type Settings = z.infer<typeof SettingsSchema>;
/** `_nodwyn/settings/get` params. */
export const SettingsGetParamsSchema = z.object({}).passthrough().default({});
/** What `_nodwyn/settings/get` answers: the file, its settable sections' values, and their fields. */
export const SettingsGetResultSchema = z.object({
  file: z.string(),
  settings: SettingsSchema,
  fields: z.record(z.string(), z.record(z.string(), SettingFieldSchema)),
});
/** `_nodwyn/settings/validate` and `_nodwyn/settings/set` params: the settable sections' new values. */
export const SettingsChangeParamsSchema = z.object({ settings: SettingsSchema }).passthrough();
/** What `_nodwyn/settings/validate` answers: `ok`, else the envelope naming the first bad key. */
export const SettingsValidateResultSchema = z.object({ ok: z.boolean(), envelope: EnvelopeSchema.optional() });
/** What `_nodwyn/settings/set` answers: the file written and how many workspaces' plugins restarted. */
export const SettingsSetResultSchema = z.object({ file: z.string(), restarted: z.number().int().nonnegative() });
