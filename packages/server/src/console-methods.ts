import type { AgentApp } from '@agentclientprotocol/sdk';
import {
  BindingsAddParamsSchema,
  BindingsListParamsSchema,
  BindingsRemoveParamsSchema,
  CapabilitiesDisableParamsSchema,
  CapabilitiesHistoryParamsSchema,
  CapabilitiesListParamsSchema,
  CapabilitiesRollbackParamsSchema,
  CONSOLE_METHODS,
  LogEventsParamsSchema,
  LogVerifyParamsSchema,
  SecretsAddParamsSchema,
  SecretsListParamsSchema,
  SettingsChangeParamsSchema,
  SettingsGetParamsSchema,
} from '@nodwyn/protocol';
import { addBinding, listBindings, removeBindings } from './console-bindings.js';
import { capabilityHistory, disableCapability, listCapabilities, rollbackCapability } from './console-capabilities.js';
import { logPage, verifyLog } from './console-log.js';
import { addSecret, listSecrets } from './console-secrets.js';
import { currentSettings, fieldsFor, plannedConfig, validateSettings, writeSettings } from './console-settings.js';
import { paramsParser, rpcError } from './rpc-error.js';
import type { SessionManager } from './session-manager.js';

/** Runs a handler body, turning whatever it throws into a JSON-RPC error with the envelope as `data`. */
async function answering<T>(operation: string, body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw rpcError(error, operation);
  }
}

/**
 * Adds the console methods (`CONSOLE_METHODS`, docs/frontends.md "Console methods") to an agent app,
 * all but the login link (the HTTP side answers that): the log's pages and verdict, and the keychain's,
 * the egress plugin's and the capabilities plugin's own commands, run as a person runs them, and the
 * person's settings. Each is a person's action through a client they opened; none is offered to a model.
 */
export function consoleMethods(sessions: SessionManager, app: AgentApp): AgentApp {
  return settingsMethods(sessions, capabilityMethods(sessions, keychainAndBindingMethods(sessions, logMethods(sessions, app))));
}

const M = CONSOLE_METHODS;

function logMethods(sessions: SessionManager, app: AgentApp): AgentApp {
  return app
    .onRequest(M.logEvents, paramsParser(LogEventsParamsSchema, M.logEvents), ({ params }) => answering(M.logEvents, () => logPage(sessions.log, params)))
    .onRequest(M.logVerify, paramsParser(LogVerifyParamsSchema, M.logVerify), ({ params }) => answering(M.logVerify, () => verifyLog(sessions.log, params.sessionId)));
}

function keychainAndBindingMethods(sessions: SessionManager, app: AgentApp): AgentApp {
  return app
    .onRequest(M.secretsList, paramsParser(SecretsListParamsSchema, M.secretsList), () => answering(M.secretsList, async () => listSecrets(await sessions.defaultKernel())))
    .onRequest(M.secretsAdd, paramsParser(SecretsAddParamsSchema, M.secretsAdd), ({ params }) =>
      answering(M.secretsAdd, async () => addSecret(await sessions.defaultKernel(), { name: params.name, class: params.class, value: params.value, ...(params.force ? { force: true } : {}) })),
    )
    .onRequest(M.bindingsList, paramsParser(BindingsListParamsSchema, M.bindingsList), () => answering(M.bindingsList, async () => listBindings(await sessions.defaultKernel())))
    .onRequest(M.bindingsAdd, paramsParser(BindingsAddParamsSchema, M.bindingsAdd), ({ params }) =>
      answering(M.bindingsAdd, async () =>
        addBinding(await sessions.defaultKernel(), { class: params.class, host: params.host, ...(params.path === undefined ? {} : { path: params.path }), position: params.position, method: params.method }),
      ),
    )
    .onRequest(M.bindingsRemove, paramsParser(BindingsRemoveParamsSchema, M.bindingsRemove), ({ params }) =>
      answering(M.bindingsRemove, async () =>
        removeBindings(await sessions.defaultKernel(), { class: params.class, ...(params.host === undefined ? {} : { host: params.host }), ...(params.path === undefined ? {} : { path: params.path }) }),
      ),
    );
}

function capabilityMethods(sessions: SessionManager, app: AgentApp): AgentApp {
  return app
    .onRequest(M.capabilitiesList, paramsParser(CapabilitiesListParamsSchema, M.capabilitiesList), ({ params }) =>
      answering(M.capabilitiesList, async () => listCapabilities(await sessions.workspaceKernel(params.workspace, M.capabilitiesList))),
    )
    .onRequest(M.capabilitiesHistory, paramsParser(CapabilitiesHistoryParamsSchema, M.capabilitiesHistory), ({ params }) =>
      answering(M.capabilitiesHistory, async () => capabilityHistory(await sessions.workspaceKernel(params.workspace, M.capabilitiesHistory), params.name)),
    )
    .onRequest(M.capabilitiesRollback, paramsParser(CapabilitiesRollbackParamsSchema, M.capabilitiesRollback), ({ params }) =>
      answering(M.capabilitiesRollback, async () => rollbackCapability(await sessions.workspaceKernel(params.workspace, M.capabilitiesRollback), params.name, params.to)),
    )
    .onRequest(M.capabilitiesDisable, paramsParser(CapabilitiesDisableParamsSchema, M.capabilitiesDisable), ({ params }) =>
      answering(M.capabilitiesDisable, async () => disableCapability(await sessions.workspaceKernel(params.workspace, M.capabilitiesDisable), params.name)),
    );
}

function settingsMethods(sessions: SessionManager, app: AgentApp): AgentApp {
  return app
    .onRequest(M.settingsGet, paramsParser(SettingsGetParamsSchema, M.settingsGet), () =>
      answering(M.settingsGet, async () => currentSettings(sessions.configFile, fieldsFor(await sessions.defaultKernel()))),
    )
    .onRequest(M.settingsValidate, paramsParser(SettingsChangeParamsSchema, M.settingsValidate), ({ params }) =>
      answering(M.settingsValidate, async () => validateSettings(sessions.configFile, params.settings, fieldsFor(await sessions.defaultKernel()))),
    )
    .onRequest(M.settingsSet, paramsParser(SettingsChangeParamsSchema, M.settingsSet), ({ params }) =>
      answering(M.settingsSet, async () => {
        const file = sessions.configFile;
        const fields = fieldsFor(await sessions.defaultKernel());
        plannedConfig(file, params.settings, fields);
        // Planned again inside: the file is read once more right before it is written.
        const restarted = await sessions.restartPlugins(() => writeSettings(file, plannedConfig(file, params.settings, fields)));
        return { file, restarted };
      }),
    );
}
