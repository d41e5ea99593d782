export { providerScriptedPlugin } from './plugin.js';
export { PLUGIN_NAME, ScriptedErrorCode } from './errors.js';
export { SCRIPT_MAX_BYTES, ScriptSchema, type Script, type ScriptReply } from './script.js';
