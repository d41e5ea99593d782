export { KIND_TEMPLATES, PLUGIN_KINDS, type PluginKind } from './kinds/index.js';
export type { KindTemplate } from './kinds/kind-template.js';
export { invalidPluginName, pluginNames, type PluginLayout, type PluginNames } from './names.js';
export { isPluginKind, pluginFiles, PluginTemplateError, type PluginFiles, type PluginFilesOptions } from './plugin-files.js';
export { VERSIONS } from './versions.js';
