export { AGENT_BRIEF, agentContributor } from './agent-brief.js';
export { environmentContributor, environmentText } from './environment.js';
export { instructionParts, instructionsContributor, MAX_FILE_BYTES, REPOSITORY_FILES, type InstructionsSource } from './instructions.js';
export { contextDefaultPlugin, PLUGIN_NAME } from './plugin.js';
