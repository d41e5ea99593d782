export { createDefaultLoop, defaultLoop } from './default-loop.js';
export { LoopErrorCode } from './errors.js';
export { loopDefaultPlugin } from './plugin.js';
