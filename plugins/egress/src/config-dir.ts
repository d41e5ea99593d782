import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder of the user's config.toml, mirroring the CLI's `configPath()`: `$NODWYN_HOME`, else
 * `$XDG_CONFIG_HOME/nodwyn`, else `~/.config/nodwyn`. A plugin may not import the CLI, hence the copy.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NODWYN_HOME) return env.NODWYN_HOME;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'nodwyn');
}

/**
 * The binding table, next to config.toml. It is its own file because `nodwyn bind` rewrites it, and
 * rewriting the person's hand-written config.toml would drop their comments.
 */
export function bindingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'bindings.toml');
}
