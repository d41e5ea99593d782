import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where nodwyn keeps its data: `$NODWYN_HOME`, else the XDG data dir. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NODWYN_HOME) return env.NODWYN_HOME;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'nodwyn');
}

/** The user's config file: `$NODWYN_HOME/config.toml`, else the XDG config dir. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NODWYN_HOME) return join(env.NODWYN_HOME, 'config.toml');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'nodwyn', 'config.toml');
}

/** The log database and its checkpoint key, side by side in the data dir. */
export function logPaths(dir: string): { dbPath: string; keyPath: string } {
  return { dbPath: join(dir, 'nodwyn.db'), keyPath: join(dir, 'log.key') };
}

/**
 * The record of trusted workspaces, in the data dir. Never inside a workspace: a repository must not be
 * able to ship its own trust along with the configuration it asks you to trust.
 */
export function trustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'trust.json');
}
