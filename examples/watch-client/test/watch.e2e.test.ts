import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Runs a TypeScript entry from source, as `npm run bench` does. */
const fromSource = (entry: string, args: string[]) => [process.execPath, ['--conditions=@nodwyn/source', '--import', import.meta.resolve('tsx'), join(root, entry), ...args]] as const;

describe('the example client of docs/frontends.md', () => {
  // docs/frontends.md shows the file whole, through an include that tools/docs checks word for word.
  it('stays short enough to show whole in docs/frontends.md: at most 30 lines', () => {
    const source = readFileSync(join(root, 'examples', 'watch-client', 'src', 'watch.ts'), 'utf8');
    expect(source.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
  });

  let dir = '';
  let daemon: ChildProcess | undefined;
  afterEach(() => {
    daemon?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('streams the answer of a real nodwyn serve, shows the tool call and answers its question from the terminal', async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-watch-')));
    const home = join(dir, 'home');
    const workspace = join(dir, 'workspace');
    mkdirSync(home);
    mkdirSync(workspace);
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ replies: [{ text: 'Making it.', toolCalls: [{ name: 'shell', args: { command: 'touch made.txt' } }] }, { text: 'Made it.' }] }));
    writeFileSync(join(home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
    const env = { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: home };
    const [node, serveArgs] = fromSource('apps/cli/src/main.ts', ['serve', '--port', '0']);
    daemon = spawn(node, serveArgs, { cwd: workspace, env, stdio: ['ignore', 'pipe', 'inherit'] });
    await Promise.race([once(daemon.stdout!, 'data'), once(daemon, 'exit').then(([code]) => Promise.reject(new Error(`nodwyn serve exited ${String(code)}`)))]);
    const [, watchArgs] = fromSource('examples/watch-client/src/watch.ts', ['make', 'the', 'file']);
    const watch = spawn(node, watchArgs, { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    watch.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    watch.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      // The question: pick "1) Allow once".
      if (stderr.includes('1) Allow once')) watch.stdin!.write('1\n');
    });
    const [code] = (await once(watch, 'exit')) as [number];
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Making it.');
    expect(stdout).toContain('[shell touch made.txt]');
    expect(stdout).toMatch(/Made it\.\n\[end_turn\] session s-/);
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
  });
});
