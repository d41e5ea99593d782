export { defaultLoop } from './default-loop.js';
export { loopDefaultPlugin } from './plugin.js';
