import { definePlugin, EgressSenderToken, KeychainToken, optional, type PrimitiveDefinition, type PrimitiveSource } from '@nodwyn/plugin-api';
import { configuredApis } from './api-config.js';
import { loadApi, type LoadedApi } from './api-load.js';
import { apiTools } from './api-tools.js';
import { PLUGIN_NAME } from './errors.js';
import { mockCommand } from './mock-command.js';
import { openApiCommand } from './openapi-command.js';

/** The package name, which is also the plugin's name in its manifest. */
export const PLUGIN = PLUGIN_NAME;

/**
 * OpenAPI documents the person registered (`nodwyn openapi add`) become guarded tools, one per
 * operation, on the operation runtime of `@nodwyn/plugin-api/transport` (docs/architecture.md §8);
 * `nodwyn mock` serves a document on loopback with generated answers and injected faults.
 */
export const openapiPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Which APIs become tools and which secrets they carry: only the person's own config says.
    userOnlyConfig: true,
    description: 'OpenAPI 3.0/3.1 documents as guarded tools (nodwyn openapi add), and nodwyn mock.',
    provides: ['primitive-source:openapi', 'command:openapi', 'command:mock'],
    permissions: ['secrets.reveal', 'net', 'fs.read', 'fs.write'],
  },
  // The egress plugin's last hop substitutes credentials; without it only requests without handles go out.
  deps: { sender: optional(EgressSenderToken), keychain: optional(KeychainToken) },
  async register(ctx, deps) {
    const loaded = new Map<string, LoadedApi | Error>();
    for (const api of configuredApis(ctx.configDir, ctx.config)) {
      // One broken document costs its own tools, never the others' or the commands that fix it.
      loaded.set(api.name, await loadApi(api).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))));
    }
    const tools = new Map<string, PrimitiveDefinition<unknown>>();
    for (const api of loaded.values()) {
      if (api instanceof Error) continue;
      for (const tool of apiTools(api, { sender: () => deps.sender, store: ctx.store, keychain: () => deps.keychain })) tools.set(tool.name, tool as PrimitiveDefinition<unknown>);
    }
    const source: PrimitiveSource = { name: 'openapi', get: (name) => tools.get(name), list: () => [...tools.values()] };
    ctx.primitives.addSource(source);
    ctx.commands.register(openApiCommand({ configDir: ctx.configDir, loaded: () => loaded, keychain: () => deps.keychain }));
    ctx.commands.register(mockCommand());
  },
});

export default openapiPlugin;
export { OpenApiErrorCode } from './errors.js';
export { loadDocument, type LoadedDocument } from './document-load.js';
export { mapDocument, type MappedOperation } from './operation-map.js';
export { startMock, type MockOptions, type MockServer, type MockRequest } from './mock/mock-server.js';
