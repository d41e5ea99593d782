import type { EnvelopeError } from '@nodwyn/plugin-api';
import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { runtimeError } from './errors.js';

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

/**
 * Where third-party plugins are installed and resolved from: the config folder, never the workspace, so a
 * cloned repository cannot put code in the agent by shipping its own node_modules.
 */
export function pluginRoot(env: NodeJS.ProcessEnv = process.env): string {
  return dirname(configPath(env));
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

/**
 * Checks that the data dir is a folder when it exists: a file in its place (`NODWYN_HOME=some-file`) is
 * an envelope that names it, not an INTERNAL error from deep inside SQLite or mkdir.
 */
export function checkDataDir(dir: string): void {
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(dir, { throwIfNoEntry: false })?.isDirectory();
  } catch (error) {
    // ENOTDIR: a file stands where one of its parent folders should be.
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    isDirectory = false;
  }
  if (isDirectory === false) throw homeNotADirectory(dir);
}

/** The data dir, created (mode 0700) when missing; see {@link checkDataDir}. */
export function ensureDataDir(dir: string): void {
  checkDataDir(dir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') throw homeNotADirectory(dir);
    throw runtimeError(
      'HOME_UNWRITABLE',
      { operation: 'nodwyn.home', received_value: dir, remediation: `nodwyn could not create its data folder ${dir} (${code ?? String(error)}); make its parent writable or set NODWYN_HOME to a folder you own.` },
      error,
    );
  }
}

function homeNotADirectory(dir: string): EnvelopeError {
  return runtimeError('HOME_NOT_A_DIRECTORY', {
    operation: 'nodwyn.home',
    failed_parameter: 'NODWYN_HOME',
    received_value: dir,
    expected: 'a folder (or a path where nodwyn may create one)',
    remediation: `nodwyn's data folder ${dir} is a file, or lies under one; point NODWYN_HOME at a folder, or move that file away.`,
  });
}
