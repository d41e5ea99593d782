import { EnvelopeError } from '@nodwyn/plugin-api';
import { invalidPluginName, isPluginKind, PLUGIN_KINDS, pluginFiles } from '@nodwyn/plugin-templates';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { guarded } from './guarded.js';

/**
 * `nodwyn plugin new NAME --kind K [--dir DIR]`: writes a standalone npm package for a plugin of kind K
 * (the files of @nodwyn/plugin-templates, the same ones the monorepo's nx generator writes) into DIR,
 * `./<last part of NAME>` by default. Refuses a bad NAME or kind, and a DIR that holds anything.
 */
export function pluginNewCommand(name: string, options: { kind: string; dir?: string; json?: boolean }): Promise<number> {
  return guarded(options.json, async () => {
    const kind = options.kind;
    if (!isPluginKind(kind)) throw invalid('--kind', kind, `one of ${PLUGIN_KINDS.join(', ')}`, CliCodes.PLUGIN_KIND_INVALID);
    const why = invalidPluginName(name, 'standalone');
    if (why !== undefined) throw invalid('NAME', name, why, CliCodes.PLUGIN_NAME_INVALID);
    const dir = resolve(options.dir ?? name.slice(name.lastIndexOf('/') + 1));
    refuseOccupied(dir);
    const files = pluginFiles({ kind, name, layout: 'standalone', folder: shownPath(dir) });
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content, { flag: 'wx' });
    }
    const lines = [`created ${kind} plugin ${name} in ${dir} (${Object.keys(files).length} files)`, 'next:', `  cd ${shownPath(dir)}`, '  npm install', '  npm run build', '  npm test', `  nodwyn plugins add ${shownPath(dir)} --yes`];
    process.stdout.write(options.json ? `${JSON.stringify({ name, kind, dir, files: Object.keys(files) })}\n` : `${lines.join('\n')}\n`);
    return EXIT.OK;
  });
}

function invalid(parameter: string, value: string, expected: string, code: string): EnvelopeError {
  return new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code,
    operation: 'plugin.new',
    failed_parameter: parameter,
    received_value: value,
    expected,
    remediation: `Give ${parameter} ${expected}.`,
  });
}

function refuseOccupied(dir: string): void {
  if (!existsSync(dir)) return;
  if (statSync(dir).isDirectory() && readdirSync(dir).length === 0) return;
  throw new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: CliCodes.PLUGIN_DIR_NOT_EMPTY,
    operation: 'plugin.new',
    failed_parameter: '--dir',
    received_value: dir,
    remediation: `${dir} exists and is not an empty folder; nothing was written. Give --dir a new or empty folder.`,
  });
}

/** `dir` as the person would type it from here: `./name` below the current folder, else absolute. */
function shownPath(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel}` : dir;
}
