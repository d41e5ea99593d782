export { EXIT, PLUGIN_NAME } from './errors.js';
export { frontendTuiPlugin } from './plugin.js';
export { parseTuiArgs, type TuiArgs } from './session/launch-args.js';
export { runTui, tuiFrontend, processTerminal, type TuiTerminal } from './tui-frontend.js';
