import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeNodwyn } from '../../test/fake-nodwyn.js';
import { nodeDaemonSpawner } from './node-daemon-spawner.js';

const homes: string[] = [];
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-home-'));
  homes.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('nodeDaemonSpawner (real child processes)', () => {
  it('runs `<cli> serve --port 0` with NODWYN_HOME, is ready on the first stdout line, and stops on SIGTERM', async () => {
    const dir = home();
    const child = nodeDaemonSpawner(fakeNodwyn().command)(dir);
    const url = await child.ready;
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    expect(JSON.parse(readFileSync(join(dir, 'serve.json'), 'utf8')).url).toBe(url);
    child.stop();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });

  it('passes serve --port 0 to the command', async () => {
    const command = { command: process.execPath, args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))'] };
    const child = nodeDaemonSpawner(command)(home());
    expect(JSON.parse(await child.ready)).toEqual(['serve', '--port', '0']);
  });

  it('rejects ready when the child exits first, and keeps its stderr as the last error', async () => {
    const script = "process.stderr.write('line one\\nconfig.toml: bad value\\n'); process.exit(3)";
    const child = nodeDaemonSpawner({ command: process.execPath, args: ['-e', script] })(home());
    await expect(child.ready).rejects.toThrow('exit code 3');
    expect(await child.exited).toEqual({ code: 3, signal: null });
    expect(child.lastError()).toBe('line one\nconfig.toml: bad value');
  });

  it('says why when the command cannot be started at all', async () => {
    const child = nodeDaemonSpawner({ command: join(tmpdir(), 'no-such-nodwyn-binary'), args: [] })(home());
    await expect(child.ready).rejects.toThrow('could not be started');
    expect(child.lastError()).toContain('ENOENT');
  });
});
