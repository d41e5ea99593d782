import { EnvelopeError } from '@nodwyn/plugin-api';
import { relative } from 'node:path';
import { hostEnvelopeInit } from './errors.js';

/** Where a syntax error is: a file (relative to the package folder) and its 1-based line and column. */
export interface SyntaxLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Turns what `import()` of a plugin's entry file threw into an envelope that names the real cause, not
 * "a bug in" the plugin: a syntax error (with its file and line), an import that is not installed, or
 * a module that threw while it was evaluated.
 */
export async function importFailure(error: unknown, packageName: string, entry: string, folder: string): Promise<EnvelopeError> {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (error instanceof SyntaxError) {
    const at = (await syntaxLocation(entry, folder)) ?? commonJsLocation(error, folder);
    const where = at ? `${at.file}:${at.line}:${at.column}` : relative(folder, entry);
    return failure('PLUGIN_SYNTAX_ERROR', packageName, where, error, `${packageName} has a syntax error at ${where} (${message}); fix that file (rebuild the plugin if it is built) and reinstall it.`);
  }
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
    return failure('PLUGIN_IMPORT_MISSING', packageName, message, error, `${packageName} imports what is not installed where it runs (${message}); install the plugin with its dependencies (npm install in its folder, or \`nodwyn plugins add\`).`);
  }
  return failure('PLUGIN_MODULE_THREW', packageName, message, error, `${packageName}'s code threw while nodwyn imported it, before register() (${message}); check what its module does at import time, or tell its author.`);
}

/**
 * Finds the first syntax error in the files `entry` imports, relative ones followed: Node's SyntaxError
 * from an ES module names no file, so the plugin's files are parsed again with esbuild, which does.
 * Undefined when esbuild finds none (a construct only V8 refuses) or is not there.
 */
export async function syntaxLocation(entry: string, folder: string): Promise<SyntaxLocation | undefined> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    // Without esbuild (a host installed without it) the failure is still told, only without a line.
    return undefined;
  }
  try {
    await esbuild.build({ entryPoints: [entry], absWorkingDir: folder, bundle: true, write: false, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent' });
    return undefined;
  } catch (error) {
    const location = (error as { errors?: { location?: { file: string; line: number; column: number } | null }[] }).errors?.find((e) => e.location)?.location;
    return location ? { file: location.file, line: location.line, column: location.column + 1 } : undefined;
  }
}

// A CommonJS file's SyntaxError starts its stack with `/path/file.js:LINE`.
function commonJsLocation(error: SyntaxError, folder: string): SyntaxLocation | undefined {
  const match = /^(\/[^\n]+):(\d+)\n/.exec(error.stack ?? '');
  if (!match?.[1] || !match[2]) return undefined;
  const file = relative(folder, match[1]);
  return { file: file.startsWith('..') ? match[1] : file, line: Number(match[2]), column: 1 };
}

function failure(code: 'PLUGIN_SYNTAX_ERROR' | 'PLUGIN_IMPORT_MISSING' | 'PLUGIN_MODULE_THREW', plugin: string, received: string, cause: unknown, remediation: string): EnvelopeError {
  return new EnvelopeError(hostEnvelopeInit(code, { plugin, operation: 'plugin.load', received_value: received, remediation }), { cause });
}

