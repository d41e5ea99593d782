import {
  BindingsAddParamsSchema,
  BindingsAddResultSchema,
  BindingsListParamsSchema,
  BindingsListResultSchema,
  BindingsRemoveParamsSchema,
  BindingsRemoveResultSchema,
  CapabilitiesDisableParamsSchema,
  CapabilitiesHistoryParamsSchema,
  CapabilitiesHistoryResultSchema,
  CapabilitiesListParamsSchema,
  CapabilitiesListResultSchema,
  CapabilitiesRollbackParamsSchema,
  CapabilityChangeResultSchema,
  CONSOLE_METHODS,
  LoginLinkParamsSchema,
  LoginLinkResultSchema,
  LogEventsParamsSchema,
  LogEventsResultSchema,
  LogVerifyParamsSchema,
  LogVerifyResultSchema,
  SecretsAddParamsSchema,
  SecretsAddResultSchema,
  SecretsListParamsSchema,
  SecretsListResultSchema,
  SettingsChangeParamsSchema,
  SettingsGetParamsSchema,
  SettingsGetResultSchema,
  SettingsSetResultSchema,
  SettingsValidateResultSchema,
} from '@nodwyn/protocol';
import { checkParams, checkResult, type Parsed, type SchemaLike } from './schema-check.js';

/** Sends one request on the client's connection (reconnecting as the client does). */
export type Requester = (method: string, params: unknown) => Promise<unknown>;

/**
 * The console methods (`CONSOLE_METHODS`: login link, log, secrets, bindings, capabilities, settings),
 * each checked against the protocol's schemas before it is sent and when it is answered. A
 * `NodwynClient` offers them as `client.console`.
 */
export class ConsoleApi {
  constructor(private readonly request: Requester) {}

  /** A one-time login link for the web console. */
  loginLink() {
    return this.send(CONSOLE_METHODS.loginLink, LoginLinkParamsSchema, {}, LoginLinkResultSchema);
  }

  /** A page of a session's log events, oldest first (before `beforeSeq`, else after `afterSeq`). */
  logEvents(params: { sessionId: string; beforeSeq?: number; afterSeq?: number; limit?: number }) {
    return this.send(CONSOLE_METHODS.logEvents, LogEventsParamsSchema, params, LogEventsResultSchema);
  }

  /** `nodwyn log verify`'s verdict for one session, or the whole log. */
  verifyLog(sessionId?: string) {
    return this.send(CONSOLE_METHODS.logVerify, LogVerifyParamsSchema, sessionId === undefined ? {} : { sessionId }, LogVerifyResultSchema);
  }

  async listSecrets() {
    return (await this.send(CONSOLE_METHODS.secretsList, SecretsListParamsSchema, {}, SecretsListResultSchema)).secrets;
  }

  /** Stores a secret; the value goes to the keychain only and is never answered back. */
  addSecret(secret: { name: string; class: string; value: string; force?: boolean }) {
    return this.send(CONSOLE_METHODS.secretsAdd, SecretsAddParamsSchema, secret, SecretsAddResultSchema);
  }

  async listBindings() {
    return (await this.send(CONSOLE_METHODS.bindingsList, BindingsListParamsSchema, {}, BindingsListResultSchema)).bindings;
  }

  async addBinding(binding: { class: string; host: string; path?: string; position: string[]; method: string[] }) {
    return (await this.send(CONSOLE_METHODS.bindingsAdd, BindingsAddParamsSchema, binding, BindingsAddResultSchema)).bindings;
  }

  async removeBinding(which: { class: string; host?: string; path?: string }) {
    return (await this.send(CONSOLE_METHODS.bindingsRemove, BindingsRemoveParamsSchema, which, BindingsRemoveResultSchema)).bindings;
  }

  async listCapabilities(workspace: string) {
    return (await this.send(CONSOLE_METHODS.capabilitiesList, CapabilitiesListParamsSchema, { workspace }, CapabilitiesListResultSchema)).capabilities;
  }

  capabilityHistory(workspace: string, name: string) {
    return this.send(CONSOLE_METHODS.capabilitiesHistory, CapabilitiesHistoryParamsSchema, { workspace, name }, CapabilitiesHistoryResultSchema);
  }

  async rollbackCapability(workspace: string, name: string, to: number) {
    return (await this.send(CONSOLE_METHODS.capabilitiesRollback, CapabilitiesRollbackParamsSchema, { workspace, name, to }, CapabilityChangeResultSchema)).capability;
  }

  async disableCapability(workspace: string, name: string) {
    return (await this.send(CONSOLE_METHODS.capabilitiesDisable, CapabilitiesDisableParamsSchema, { workspace, name }, CapabilityChangeResultSchema)).capability;
  }

  /** The settable sections of the person's config.toml, their values and fields. */
  settings() {
    return this.send(CONSOLE_METHODS.settingsGet, SettingsGetParamsSchema, {}, SettingsGetResultSchema);
  }

  validateSettings(settings: Record<string, Record<string, unknown>>) {
    return this.send(CONSOLE_METHODS.settingsValidate, SettingsChangeParamsSchema, { settings }, SettingsValidateResultSchema);
  }

  /** Validates, saves, and restarts the daemon's plugins with the new settings. */
  saveSettings(settings: Record<string, Record<string, unknown>>) {
    return this.send(CONSOLE_METHODS.settingsSet, SettingsChangeParamsSchema, { settings }, SettingsSetResultSchema);
  }

  private async send<P extends SchemaLike, R extends SchemaLike>(method: string, paramsSchema: P, params: unknown, resultSchema: R): Promise<Parsed<R>> {
    return checkResult(resultSchema, await this.request(method, checkParams(paramsSchema, params, method)), method);
  }
}
