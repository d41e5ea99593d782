import * as api from '@nodwyn/plugin-api';
import * as sandbox from '@nodwyn/plugin-api/sandbox';
import * as transport from '@nodwyn/plugin-api/transport';

/** Where a `nodwyn dist build` bundle's third-party plugins find the host's `@nodwyn/plugin-api`. */
export const HOST_PLUGIN_API = Symbol.for('nodwyn.hostPluginApi');

/** The host's `@nodwyn/plugin-api` and its subpaths, by the specifier a plugin imports. */
export const HOST_PLUGIN_API_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  '@nodwyn/plugin-api': api,
  '@nodwyn/plugin-api/sandbox': sandbox,
  '@nodwyn/plugin-api/transport': transport,
};

/**
 * Shares the host's plugin-api with the third-party plugins baked into a bundle, whose imports of it
 * `nodwyn dist build` pointed here: the peer dependency the host provides, one zod and one set of
 * tokens with the first-party plugins, and no second copy in the file.
 */
export function shareHostPluginApi(): void {
  (globalThis as Record<symbol, unknown>)[HOST_PLUGIN_API] = HOST_PLUGIN_API_MODULES;
}
