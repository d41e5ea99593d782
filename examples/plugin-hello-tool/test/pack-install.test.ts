import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodwyn, npm, npmEnv, pack, REPO, tempDir } from './npm.js';

// npm pack of the packages a plugin or a front end depends on, installed into an empty folder the way an
// author outside the monorepo would, then imported by Node and by tsc (docs/publishing.md).
const root = tempDir('nodwyn-pack-');
const app = join(root, 'app');
const env = npmEnv({ npm_config_prefer_offline: 'true' });

beforeAll(() => {
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const tarballs = ['packages/protocol', 'packages/plugin-api', 'packages/client', 'examples/plugin-hello-tool'].map((dir) => pack(dir, root, env));
  npm(['install', ...tarballs], app, env);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the packed packages', () => {
  it('ship dist and README, never sources or tests', () => {
    const files = execFileSync('tar', ['-tzf', pack('packages/plugin-api', root, env)], { encoding: 'utf8' }).split('\n');
    expect(files).toContain('package/dist/src/index.js');
    expect(files).toContain('package/dist/src/index.d.ts');
    expect(files).toContain('package/README.md');
    expect(files.filter((file) => file.includes('/src/') && !file.startsWith('package/dist/'))).toEqual([]);
    expect(files.filter((file) => file.includes('.test.'))).toEqual([]);
  });

  it('import in plain Node from an empty folder', () => {
    const script = [
      "const api = await import('@nodwyn/plugin-api');",
      "const protocol = await import('@nodwyn/protocol');",
      "const client = await import('@nodwyn/client');",
      "const plugin = (await import('@acme/nodwyn-plugin-hello')).default;",
      'console.log(JSON.stringify([typeof api.definePlugin, typeof protocol.EnvelopeSchema, typeof client.NodwynClient, plugin.manifest.name]));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['function', 'object', 'function', '@acme/nodwyn-plugin-hello']);
  });

  it('carry their types, which tsc resolves with NodeNext', () => {
    writeFileSync(
      join(app, 'check.ts'),
      [
        "import { definePlugin, type PluginContext } from '@nodwyn/plugin-api';",
        "import type { Envelope } from '@nodwyn/protocol';",
        "import { NodwynClient } from '@nodwyn/client';",
        "export const plugin = definePlugin({ manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0' }, register: (ctx: PluginContext) => void ctx });",
        "export const code: Envelope['code'] = 'X';",
        'export const client: typeof NodwynClient = NodwynClient;',
      ].join('\n'),
    );
    // An author's usual settings: Node's types (from the repository's @types/node here) and skipLibCheck.
    const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(REPO, 'node_modules', '@types')] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(existsSync(join(app, 'node_modules', '@nodwyn', 'plugin-api', 'dist', 'src', 'index.d.ts'))).toBe(true);
    const check = spawnSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
    expect([check.status, check.stdout]).toEqual([0, '']);
  });

  it('load into nodwyn from the folder the tarballs were installed in', () => {
    // The folder is NODWYN_HOME: config.toml names the plugin, resolved from the folder's node_modules.
    writeFileSync(join(app, 'config.toml'), '[[distribution.plugins]]\npackage = "@acme/nodwyn-plugin-hello"\nrange = "^1.0.0"\noptional = false\n');
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    const script = join(root, 'script.json');
    writeFileSync(script, JSON.stringify({ replies: [{ toolCalls: [{ name: 'hello', args: { name: 'Grace' } }] }, { text: 'tool said: {{lastToolResult}}' }] }));
    const approve = nodwyn(['plugins', 'approve', '@acme/nodwyn-plugin-hello', '--yes'], app, workspace);
    expect(approve.code, approve.stderr).toBe(0);
    const run = nodwyn(['run', 'greet Grace', '--script', script], app, workspace);
    expect([run.code, run.stdout], run.stderr).toEqual([0, expect.stringContaining('Hello, Grace!')]);
  });
});
