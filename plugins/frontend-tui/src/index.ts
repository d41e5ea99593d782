export { EXIT, PLUGIN_NAME } from './errors.js';
export { frontendTuiPlugin } from './plugin.js';
export { parseTuiArgs, type TuiArgs } from './session/launch-args.js';
// The TUI itself (ink, React) is not re-exported here: the plugin imports it when it starts.
export type { TuiTerminal } from './tui-frontend.js';
