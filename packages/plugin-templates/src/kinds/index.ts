import { frontendTemplate } from './frontend.js';
import type { KindTemplate } from './kind-template.js';
import { loopTemplate } from './loop.js';
import { providerTemplate } from './provider.js';
import { sandboxTemplate } from './sandbox.js';
import { stageTemplate } from './stage.js';
import { toolTemplate } from './tool.js';

/** The kinds of plugin there is a template for. */
export const PLUGIN_KINDS = ['tool', 'provider', 'stage', 'frontend', 'sandbox', 'loop'] as const;
/** One kind of plugin. */
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** Each kind's template. */
export const KIND_TEMPLATES: Readonly<Record<PluginKind, KindTemplate>> = {
  tool: toolTemplate,
  provider: providerTemplate,
  stage: stageTemplate,
  frontend: frontendTemplate,
  sandbox: sandboxTemplate,
  loop: loopTemplate,
};
