#!/usr/bin/env node
// Enforces the dependency direction of ARCHITECTURE.md §2 on nx's project graph: every project carries a
// tag, and an edge is allowed only when the target's tag is in the source tag's list. nx builds the graph
// from real imports, so an undeclared import is caught as well as a declared dependency.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ALLOWED = {
  'scope:protocol': [],
  'scope:plugin-api': ['scope:protocol'],
  'scope:kernel': ['scope:plugin-api', 'scope:protocol'],
  'scope:plugin-host': ['scope:plugin-api', 'scope:protocol'],
  'scope:testing': ['scope:kernel', 'scope:plugin-host', 'scope:plugin-api', 'scope:protocol'],
  // Plugins see only the API; @nodwyn/testing is for their tests.
  'type:plugin': ['scope:plugin-api', 'scope:protocol', 'scope:testing'],
  'type:app': ['scope:kernel', 'scope:plugin-host', 'scope:plugin-api', 'scope:protocol', 'scope:testing', 'type:plugin'],
};

/** Returns the list of violations in a graph `{ nodes: {name: {data: {tags}}}, dependencies: {name: [{target}]} }`. */
export function violations(graph) {
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
      if (!ALLOWED[tag].includes(targetTag)) found.push(`${source} (${tag}) must not depend on ${target} (${targetTag})`);
    }
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-graph-'));
  try {
    const file = join(dir, 'graph.json');
    execFileSync('npx', ['nx', 'graph', `--file=${file}`], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
    const { graph } = JSON.parse(readFileSync(file, 'utf8'));
    const found = violations(graph);
    for (const line of found) console.error(`boundary: ${line}`);
    console.log(`module boundaries: ${Object.keys(graph.nodes).length} projects checked, ${found.length} violations`);
    process.exitCode = found.length === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
