#!/usr/bin/env node
// Enforces the dependency direction of docs/architecture.md §2 on nx's project graph: every project carries a
// tag, and an edge is allowed only when the target's tag is in the source tag's list. nx builds the graph
// from real imports, so an undeclared import is caught as well as a declared dependency.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Composition roots (apps) and repository tooling may use every layer below them.
const EVERY_LAYER = ['scope:templates', 'scope:server', 'scope:runtime', 'scope:client', 'scope:kernel', 'scope:plugin-host', 'scope:plugin-api', 'scope:protocol', 'scope:testing', 'type:plugin'];

export const ALLOWED = {
  'scope:protocol': [],
  'scope:plugin-api': ['scope:protocol'],
  'scope:kernel': ['scope:plugin-api', 'scope:protocol'],
  'scope:plugin-host': ['scope:plugin-api', 'scope:protocol'],
  'scope:testing': ['scope:kernel', 'scope:plugin-host', 'scope:plugin-api', 'scope:protocol'],
  // What every composition root needs (paths, config, trust, boot), over the kernel and the host.
  'scope:runtime': ['scope:kernel', 'scope:plugin-host', 'scope:plugin-api', 'scope:protocol'],
  // The agent side of the client protocol, over the runtime.
  'scope:server': ['scope:runtime', 'scope:kernel', 'scope:plugin-host', 'scope:plugin-api', 'scope:protocol'],
  // What every front end uses: the protocol and nothing of the kernel.
  'scope:client': ['scope:protocol'],
  // The files of a new plugin (strings only): the CLI's `plugin new` and the nx generator both write them.
  'scope:templates': [],
  // Plugins see only the API (front ends also the client); @nodwyn/testing is for their tests.
  'type:plugin': ['scope:plugin-api', 'scope:protocol', 'scope:client', 'scope:testing'],
  // The authoring guide's runnable code: plugins, a client of the protocol driving the real CLI in its
  // tests, and the guide's app-side snippet assembling a distribution with the host's packageEntry.
  'type:example': ['scope:client', 'scope:protocol', 'scope:plugin-api', 'scope:plugin-host', 'scope:testing', 'type:app'],
  'type:app': EVERY_LAYER,
  // Repository tooling (tools/*): its tests load what they check (every plugin's manifest); nothing depends on it.
  'type:tool': EVERY_LAYER,
};

/** Projects whose tests may compose real plugins without depending on them (an example plugin is tested as a plugin is). */
const TEST_COMPOSERS = new Set(['type:plugin', 'type:example', 'scope:server']);

/**
 * Returns the list of violations in a graph `{ nodes: {name: {data: {tags}}}, dependencies: {name: [{target}]} }`.
 * `testOnly(source, target)` says whether a project reaches a plugin from its tests alone (a
 * devDependency no shipped file imports): a plugin's tests composing other plugins, or the server's
 * tests running the real plugins a daemon runs. Such an edge is allowed for plugins, examples and the server.
 */
export function violations(graph, testOnly = () => false) {
  const found = [];
  const tagOf = (name) => (graph.nodes[name]?.data?.tags ?? []).find((t) => t in ALLOWED);
  for (const [source, edges] of Object.entries(graph.dependencies)) {
    if (!graph.nodes[source]) continue;
    const tag = tagOf(source);
    if (!tag) {
      found.push(`${source} has no boundary tag (one of ${Object.keys(ALLOWED).join(', ')})`);
      continue;
    }
    for (const { target } of edges) {
      if (!graph.nodes[target]) continue; // npm packages are not projects
      const targetTag = tagOf(target);
      if (TEST_COMPOSERS.has(tag) && targetTag === 'type:plugin' && testOnly(source, target)) continue;
      if (!ALLOWED[tag].includes(targetTag)) found.push(`${source} (${tag}) must not depend on ${target} (${targetTag})`);
    }
  }
  return found;
}

/** The TypeScript files under `dir` that ship (tests excluded). */
function shippedFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/** Whether `source` depends on `target` only from its tests: a devDependency that no file of its src/ imports. */
function testOnlyIn(graph) {
  return (source, target) => {
    const root = graph.nodes[source].data.root;
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (!(target in (manifest.devDependencies ?? {}))) return false;
    const quoted = [`'${target}'`, `"${target}"`];
    return !shippedFiles(join(root, 'src')).some((file) => quoted.some((q) => readFileSync(file, 'utf8').includes(q)));
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-graph-'));
  try {
    const file = join(dir, 'graph.json');
    execFileSync('npx', ['nx', 'graph', `--file=${file}`], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
    const { graph } = JSON.parse(readFileSync(file, 'utf8'));
    const found = violations(graph, testOnlyIn(graph));
    for (const line of found) console.error(`boundary: ${line}`);
    console.log(`module boundaries: ${Object.keys(graph.nodes).length} projects checked, ${found.length} violations`);
    process.exitCode = found.length === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
