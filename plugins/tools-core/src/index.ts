import { definePlugin } from '@nodwyn/plugin-api';
import { parseToolsConfig } from './config.js';
import { editFileTool } from './edit-file.js';
import { PLUGIN_NAME } from './errors.js';
import { gitWritesStage } from './git-writes.js';
import { createGlobTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { createListDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { createShellTool } from './shell.js';
import { writeFileTool } from './write-file.js';

/** The tools this plugin provides, by their model-visible names. */
export const TOOL_NAMES = ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'shell'] as const;

/**
 * The core coding tools, each confined to the workspace: read_file, write_file, edit_file, list_dir,
 * glob, grep and shell, and the policy stage that asks before a write into `.git/`. Reads `[tools]` from the user's settings; a malformed section stops the plugin.
 */
export const toolsCorePlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The core coding tools: read_file, write_file, edit_file, list_dir, glob, grep and shell, confined to the workspace.',
    provides: [...TOOL_NAMES.map((name) => `primitive:${name}`), 'guard-stage:git-writes'],
    permissions: ['fs.read', 'fs.write', 'process.spawn'],
  },
  register(ctx) {
    const config = parseToolsConfig(ctx.settings);
    ctx.primitives.register(readFileTool);
    ctx.primitives.register(writeFileTool);
    ctx.primitives.register(editFileTool);
    ctx.primitives.register(createListDirTool(config));
    ctx.primitives.register(createGlobTool(config));
    ctx.primitives.register(createGrepTool(config));
    ctx.primitives.register(createShellTool(config.shell));
    ctx.guard.addStage(gitWritesStage(ctx.workspace));
  },
});

export { ToolsErrorCode } from './errors.js';
