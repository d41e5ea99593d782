import type { DistributionEntry } from '@nodwyn/plugin-host';
import { DESKTOP_PACKAGE, TUI_PACKAGE, WEB_PACKAGE } from './frontend-packages.js';

/**
 * Every first-party plugin this release ships, bundled with the CLI, in the default distribution's order.
 * A distribution file that names one of these gets this bundled copy (docs/plugin-authoring.md,
 * "Distribution files").
 */
export const FIRST_PARTY: readonly DistributionEntry[] = [
  { package: '@nodwyn/plugin-tools-core', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-tools-core')).toolsCorePlugin },
  { package: '@nodwyn/plugin-loop-default', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-loop-default')).loopDefaultPlugin },
  // The agent's brief. Optional: without it the model gets no system prompt, which costs quality, not a protection.
  { package: '@nodwyn/plugin-context-default', range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-context-default')).contextDefaultPlugin },
  // The security layers are required: nodwyn does not run with a text layer or the egress edge missing.
  { package: '@nodwyn/plugin-keychain', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-keychain')).keychainPlugin },
  { package: '@nodwyn/plugin-redact-l1', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-redact-l1')).redactL1Plugin },
  { package: '@nodwyn/plugin-redact-l2', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-redact-l2')).redactL2Plugin },
  { package: '@nodwyn/plugin-egress', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-egress')).egressPlugin },
  // Required too: a broken [judge] section must stop the run, not silently drop the judge.
  { package: '@nodwyn/plugin-judge', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-judge')).judgePlugin },
  // Self-extension (docs/architecture.md §7). All four entries are optional. Losing one of them takes away a
  // feature, never a protection: the capabilities plugin contributes its tools, its registration policy
  // and its primitive source together or not at all, and a runner that fails to load is a runner
  // nothing can run code in. So a broken or disabled one is reported (`nodwyn plugins`) and every run
  // that does not need it goes on, and a person who does not want self-extension can list it under
  // `[distribution] disabled` (a required plugin there would stop every run).
  // Capabilities without a runner would be useless, so the default runner ships with it; if that
  // runner fails anyway, capabilities still loads and each registration or run is refused with
  // CAPABILITY_RUNNER_MISSING, an envelope the model and `nodwyn capability test` show.
  {
    package: '@nodwyn/plugin-sandbox-quickjs',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-sandbox-quickjs')).sandboxQuickjsPlugin,
  },
  // Deno and Node run only the capabilities registered for them (runner = "deno" | "node"), which the
  // registration policy has a person confirm. Each starts a process per run, only when a capability
  // runs; Deno's binary is looked up then too, so a machine without it fails that run, not the load.
  {
    package: '@nodwyn/plugin-sandbox-deno',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-sandbox-deno')).sandboxDenoPlugin,
  },
  {
    package: '@nodwyn/plugin-sandbox-node',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-sandbox-node')).sandboxNodePlugin,
  },
  {
    package: '@nodwyn/plugin-capabilities',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-capabilities')).capabilitiesPlugin,
  },
  // Memory indexes (docs/architecture.md §10): optional, since losing them takes away search_repo,
  // search_session, recall and search_history, never a protection; what they index passes the text layers.
  { package: '@nodwyn/plugin-memory', range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-memory')).memoryPlugin },
  // OpenAPI documents as tools (docs/openapi.md): optional, and it contributes no tool until the person adds
  // a document with `nodwyn openapi add`; its `openapi` and `mock` commands are always there.
  { package: '@nodwyn/plugin-openapi', range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-openapi')).openapiPlugin },
  // MCP servers as tools (docs/mcp.md): optional, and free until the person configures a server (its SDK client
  // loads only then); servers start in the background and never hold up a start. Its `mcp` command is
  // reached through the CLI's `nodwyn mcp` group (list, approve).
  { package: '@nodwyn/plugin-mcp', range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-mcp')).mcpPlugin },
  {
    package: '@nodwyn/plugin-provider-anthropic',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-provider-anthropic')).providerAnthropicPlugin,
  },
  {
    package: '@nodwyn/plugin-provider-openai',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-provider-openai')).providerOpenAiPlugin,
  },
  {
    package: '@nodwyn/plugin-provider-scripted',
    range: '^0.1.0',
    optional: true,
    load: async () => (await import('@nodwyn/plugin-provider-scripted')).providerScriptedPlugin,
  },
  // The terminal front end is optional: without it (disabled, or broken) every command but the interactive
  // `nodwyn` works, and `nodwyn` says no front end is available (FRONTEND_NOT_FOUND) while `nodwyn plugins`
  // says why. Its module loads ink and React only when it starts, so other commands do not pay for them.
  { package: TUI_PACKAGE, range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-frontend-tui')).frontendTuiPlugin },
  // The web console, optional like the terminal one: it needs the daemon, which `nodwyn web` (or plain
  // `nodwyn` when it is the distribution's front end) starts; the daemon serves its bundle.
  { package: WEB_PACKAGE, range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-frontend-web')).frontendWebPlugin },
  // The desktop app's front end: it opens the installed app (apps/desktop), which supervises the daemon.
  { package: DESKTOP_PACKAGE, range: '^0.1.0', optional: true, load: async () => (await import('@nodwyn/plugin-frontend-electron')).frontendElectronPlugin },
];

/**
 * The security layers every distribution carries, required, unless its file says loudly that it is a
 * test distribution: nodwyn does not run with a text layer, the egress edge, the keychain or the judge missing.
 */
export const REQUIRED_SECURITY: readonly string[] = [
  '@nodwyn/plugin-keychain',
  '@nodwyn/plugin-redact-l1',
  '@nodwyn/plugin-redact-l2',
  '@nodwyn/plugin-egress',
  '@nodwyn/plugin-judge',
];

/** The bundled entry of first-party package `name`; undefined when it is not one. */
export function bundledEntry(name: string): DistributionEntry | undefined {
  return FIRST_PARTY.find((entry) => entry.package === name);
}
