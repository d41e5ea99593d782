import { openRuntime, type RuntimeOptions } from './runtime.js';
import type { WorkspaceScope } from './workspace-scope.js';

/** How to boot one workspace for a one-shot command. */
export interface BootOptions extends RuntimeOptions {
  /** The workspace; the current directory by default. */
  readonly workspace?: string;
}

/**
 * Opens a runtime and the scope of one workspace, for a command that runs once and exits (`nodwyn run`,
 * `nodwyn tools`). The scope owns its runtime: closing it stops the plugins and closes the log.
 */
export async function boot(options: BootOptions): Promise<WorkspaceScope> {
  const runtime = await openRuntime(options);
  try {
    const scope = await runtime.scope(options.workspace ?? process.cwd());
    return { ...scope, close: () => runtime.close() };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** Boots one workspace, runs `body` with its scope, and always shuts down. */
export async function withRuntime<T>(options: BootOptions, body: (scope: WorkspaceScope) => Promise<T>): Promise<T> {
  const scope = await boot(options);
  try {
    return await body(scope);
  } finally {
    await scope.close();
  }
}
