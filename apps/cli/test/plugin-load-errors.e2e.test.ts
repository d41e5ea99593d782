import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

const MANIFEST = (name: string, provides: string[] = []) => JSON.stringify({ name, version: '1.0.0', apiVersion: '^0.1.0', provides, requires: [], permissions: [] });

/** A third-party plugin package in the config folder, named in config.toml and approved, as a person would have it. */
function installed(name: string, packageJson: Record<string, unknown>, files: Record<string, string>): string {
  const dir = join(box.home, 'node_modules', name);
  box.write(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', ...packageJson }));
  for (const [file, text] of Object.entries(files)) box.write(join(dir, file), text);
  return dir;
}

function configure(...names: string[]): void {
  box.write(join(box.home, 'config.toml'), names.map((name) => `[[distribution.plugins]]\npackage = "${name}"\nrange = "^1.0.0"\n`).join('\n'));
  box.approve(...names);
}

/** The stderr lines that say a plugin did not load. */
function failureLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes(' did not load: '));
}

/** Four plugins that each fail to load for another reason, one that throws in register(), and one that loads. */
function brokenPlugins(): void {
  installed('exports-browser-only', { exports: { '.': { types: './index.d.ts', browser: './index.js' } } }, { 'index.js': `export default { manifest: ${MANIFEST('exports-browser-only')} };\n` });
  installed('import-only', { exports: { '.': { import: './index.js' } } }, { 'index.js': `export default { manifest: ${MANIFEST('import-only')}, register() {} };\n` });
  installed('syntax-slip', { main: 'index.js' }, {
    'index.js': `import { table } from './lib/table.js';\nexport default { manifest: ${MANIFEST('syntax-slip')}, register() { void table; } };\n`,
    'lib/table.js': 'export const table = {\n  a: 1,,\n};\n',
  });
  installed('throws-in-register', { main: 'index.js' }, { 'index.js': `export default { manifest: ${MANIFEST('throws-in-register')}, register() { throw new Error('cannot reach the tracker'); } };\n` });
  configure('exports-browser-only', 'import-only', 'syntax-slip', 'throws-in-register');
}

describe('a plugin that does not load', () => {
  it('is told once on stderr by every command that boots plugins, naming the real cause, and stdout stays pure', () => {
    brokenPlugins();
    const plugins = box.run(['plugins', '--json']);
    expect(plugins.code, plugins.stderr).toBe(0);
    const rows = JSON.parse(plugins.stdout) as { name: string; state: string }[];
    expect(rows.find((p) => p.name === 'import-only')?.state).toBe('started');
    const lines = failureLines(plugins.stderr);
    expect(lines).toEqual([
      'nodwyn: plugin exports-browser-only did not load: PLUGIN_EXPORTS_UNUSABLE — exports-browser-only\'s package.json exports map has no entry nodwyn can load (conditions: types, browser); add "default" or "import" to its "." entry, e.g. "exports": { ".": { "import": "./dist/index.js" } }.',
      expect.stringMatching(/^nodwyn: plugin syntax-slip did not load: PLUGIN_SYNTAX_ERROR — syntax-slip has a syntax error at lib\/table\.js:2:8 \(Unexpected token ','\); fix that file/),
      expect.stringMatching(/^nodwyn: plugin throws-in-register did not load: PLUGIN_REGISTER_FAILED — .*cannot reach the tracker.*This is a bug in throws-in-register/),
    ]);
    expect(lines.filter((line) => line.includes('bug in'))).toHaveLength(1);
    for (const args of [['tools', '--json'], ['run', 'hi', '--json', '--script', box.script([{ text: 'still here' }])], ['models', '--json']]) {
      const out = box.run(args);
      expect(out.code, `${args[0]}: ${out.stderr}`).toBe(0);
      expect(failureLines(out.stderr).map((line) => line.split(' did not load')[0])).toEqual(['nodwyn: plugin exports-browser-only', 'nodwyn: plugin syntax-slip', 'nodwyn: plugin throws-in-register']);
      // `run --json` writes one JSON value a line; the listings write one (indented) JSON document.
      const documents = args[0] === 'run' ? out.stdout.trim().split('\n') : [out.stdout];
      for (const text of documents) expect(() => JSON.parse(text) as unknown, `${args[0]} stdout: ${text}`).not.toThrow();
    }
  }, 120_000);

  it('is told once by an ACP agent that boots two workspaces, on stderr, with stdout left to the protocol', async () => {
    brokenPlugins();
    const other = join(box.root, 'other');
    mkdirSync(other);
    const child = spawn(process.execPath, [BIN, 'acp'], { cwd: box.workspace, env: box.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const waiting = new Map<number, () => void>();
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      for (const [id, resolve] of waiting) if (stdout.includes(`"id":${id}`)) resolve();
    });
    // Each request waits for the answer to the one before, as an editor does.
    const ask = (id: number, method: string, params: unknown) =>
      new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    await ask(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
    await ask(2, 'session/new', { cwd: box.workspace, mcpServers: [] });
    await ask(3, 'session/new', { cwd: other, mcpServers: [] });
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    const replies = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id?: number; error?: unknown });
    expect(replies.filter((r) => r.id !== undefined).map((r) => [r.id, r.error])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, undefined],
    ]);
    expect(failureLines(stderr).map((line) => line.split(' did not load')[0])).toEqual(['nodwyn: plugin exports-browser-only', 'nodwyn: plugin syntax-slip', 'nodwyn: plugin throws-in-register']);
  }, 120_000);

  it('that registers a tool with a zod 3 schema (zod@3 installed by the plugin itself) says it needs zod 4', () => {
    const dir = installed('old-zod-tool', { main: 'index.js', dependencies: { zod: '^3.23.0' } }, {
      'index.js': `import { z } from 'zod';
export default {
  manifest: ${MANIFEST('old-zod-tool', ['primitive:lookup_ticket'])},
  register(ctx) {
    ctx.primitives.register({ name: 'lookup_ticket', description: 'Looks a ticket up.', tier: 'read', visibility: 'model', input: z.object({ id: z.string() }), handler: async () => ({ content: 'ok' }) });
  },
};
`,
    });
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    configure('old-zod-tool');
    const out = box.run(['tools', '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(failureLines(out.stderr)).toEqual([
      'nodwyn: plugin old-zod-tool did not load: PLUGIN_SCHEMA_ZOD3 — old-zod-tool uses zod 3 for the input of lookup_ticket; nodwyn needs zod 4 (`zod@^4`): upgrade its zod dependency (zod 3.25 also ships zod 4 as its zod/v4 subpath) and rebuild it.',
    ]);
    expect((JSON.parse(out.stdout) as { name: string }[]).map((t) => t.name)).not.toContain('lookup_ticket');
  }, 180_000);
});
