import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentServer, type AgentServer } from './fixtures/agent-server.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let home: string | undefined;
let server: AgentServer | undefined;

afterEach(async () => {
  await server?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the README example', () => {
  it('runs against a daemon found through $NODWYN_HOME', async () => {
    server = await startAgentServer();
    home = mkdtempSync(join(tmpdir(), 'nodwyn-client-readme-'));
    writeFileSync(join(home, 'serve.json'), JSON.stringify({ url: server.url, http: 'http://127.0.0.1/', token: server.token, pid: process.pid }));
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const script = join(home, 'example.mts');
    writeFileSync(script, example.replace("'@nodwyn/client/node'", JSON.stringify(join(packageDir, 'src', 'node.ts'))));

    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=@nodwyn/source', '--import', 'tsx', script], {
      cwd: packageDir,
      env: { ...process.env, NODWYN_HOME: home },
      timeout: 20_000,
    });

    expect(stdout).toBe('Hel\n[refused: shell: ls]\nlo\n[end_turn; last seq 6]\n\n[connection closed]\n');
    expect(server.agent.sessions.get('s-1')?.cwd).toBe(packageDir.replace(/\/$/, ''));
  }, 30_000);
});
