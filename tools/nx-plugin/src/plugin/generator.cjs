// `nx g @nodwyn/tools:plugin --kind KIND NAME [--directory DIR]`. CommonJS because nx loads a local
// generator with Node alone, and Node 20 runs no TypeScript; the files come from @nodwyn/plugin-templates,
// the same ones `nodwyn plugin new` writes for a plugin outside the monorepo.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const { joinPathFragments, readJson, updateJson } = require('@nx/devkit');

const REPO = join(__dirname, '..', '..', '..', '..');

/** The templates' dist/, built first when stale (tsc -b is incremental: instant when nothing changed). */
async function templates() {
  execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(REPO, 'packages', 'plugin-templates', 'tsconfig.lib.json')], { stdio: 'inherit' });
  return import('@nodwyn/plugin-templates');
}

/** True when one of the root package.json's workspace globs (`plugins/*`, or the folder itself) covers `dir`. */
function coveredByWorkspaces(workspaces, dir) {
  return workspaces.some((glob) => glob === dir || (glob.endsWith('/*') && dir.slice(0, dir.lastIndexOf('/')) === glob.slice(0, -2)));
}

/**
 * Writes the plugin's files into the tree, refusing a folder that already holds something, and adds the
 * folder to the root workspaces when no glob covers it. `load` gives the templates module (tests pass it).
 */
async function pluginGenerator(tree, options, load = templates) {
  const { pluginFiles } = await load();
  const directory = (options.directory ?? `plugins/${options.name}`).replace(/\/+$/, '');
  const files = pluginFiles({ kind: options.kind, name: options.name, layout: 'monorepo', directory });
  if (tree.exists(directory) && tree.children(directory).length > 0) throw new Error(`${directory} already exists and is not empty; choose another NAME or --directory.`);
  for (const [path, content] of Object.entries(files)) tree.write(joinPathFragments(directory, path), content);
  if (tree.exists('package.json') && !coveredByWorkspaces(readJson(tree, 'package.json').workspaces ?? [], directory)) {
    updateJson(tree, 'package.json', (json) => ({ ...json, workspaces: [...(json.workspaces ?? []), directory] }));
  }
  return () => {
    console.log(`Next: npm install && npx nx sync, then npx nx run @nodwyn/plugin-${options.name}:test`);
  };
}

module.exports = pluginGenerator;
module.exports.default = pluginGenerator;
module.exports.pluginGenerator = pluginGenerator;
