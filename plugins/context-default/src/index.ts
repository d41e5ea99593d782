export { AGENT_BRIEF, agentBriefText, agentContributor, TOOL_TIPS } from './agent-brief.js';
export { environmentContributor, environmentText } from './environment.js';
export { instructionParts, instructionsContributor, MAX_FILE_BYTES, REPOSITORY_FILES, type InstructionsSource } from './instructions.js';
export { contextDefaultPlugin, PLUGIN_NAME } from './plugin.js';
