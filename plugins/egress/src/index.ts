import { definePlugin, EgressSenderToken, KeychainToken, optional, TaintToken } from '@nodwyn/plugin-api';
import { createBindCommand } from './bind-command.js';
import { readBindings } from './bindings-file.js';
import { bindingsPath } from './config-dir.js';
import { createEgressSender } from './egress-sender.js';
import { createEgressStage, createHopCheck } from './egress-stage.js';
import { egressError, PLUGIN_NAME } from './errors.js';
import { createHttpRequestTool } from './http-request.js';

/** `policy.allow_insecure_http`: only a real `true` allows plain http to hosts that are not loopback. */
function allowInsecureHttp(settings: Readonly<Record<string, unknown>>): boolean {
  const policy = settings.policy;
  const value = typeof policy === 'object' && policy !== null ? (policy as Record<string, unknown>).allow_insecure_http : undefined;
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw egressError('CONFIG_INVALID', {
    operation: 'register',
    failed_parameter: '$.policy.allow_insecure_http',
    received_value: value,
    expected: 'true or false',
    remediation: 'Set policy.allow_insecure_http in config.toml to true or false (without quotes).',
  });
}

/**
 * The egress edge: the binding table (`bindings.toml`, edited with `nodwyn bind`), the `egress-bindings`
 * guard stage that checks every outgoing request against it, and the `http_request` tool that substitutes
 * `{{secret:NAME}}` handles only after that check passed.
 */
export const egressPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Its section decides where secrets may go: only the person's own config sets it.
    userOnlyConfig: true,
    description: 'The egress edge: binding table, egress-bindings guard stage, the http_request tool and the last hop of the kernel\'s guarded fetch.',
    provides: ['primitive:http_request', 'guard-stage:egress-bindings', 'command:bind', 'service:egress.sender'],
    permissions: ['secrets.reveal', 'net', 'fs.read', 'fs.write'],
  },
  // The keychain is required (its service:keychain joins requires); L2 is used when it is loaded.
  deps: { keychain: KeychainToken, taint: optional(TaintToken) },
  register(ctx, deps) {
    const keychain = () => deps.keychain;
    const tracker = () => deps.taint;
    const stageDeps = {
      keychain,
      tracker,
      bindings: () => readBindings(bindingsPath()),
      allowInsecureHttp: allowInsecureHttp(ctx.settings),
      record: (session: string, payload: Record<string, unknown>) => ctx.events.append(session, 'egress.decided', payload),
    };
    ctx.guard.addStage(createEgressStage(stageDeps));
    // Redirect hops are checked with the same decisions: the guard saw only the first request.
    const checkHop = createHopCheck(stageDeps);
    ctx.primitives.register(createHttpRequestTool({ keychain, tracker, checkHop }));
    ctx.services.provide(EgressSenderToken, createEgressSender({ keychain, tracker, checkHop }));
    ctx.commands.register(createBindCommand(() => bindingsPath()));
  },
});

export { EgressErrorCode } from './errors.js';
