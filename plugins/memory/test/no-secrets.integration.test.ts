import { FileKeychain, keychainPlugin, keySourceFor } from '@nodwyn/plugin-keychain';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryPlugin } from '../src/index.js';
import { content, removeTemps, tempDir, writeTree } from './fixtures.js';

/** A keychain secret L1 has no pattern for: only L2, taught by the keychain, knows it. */
const KEYCHAIN_VALUE = 'q8Vb2LmZt4Rw9XkPc7Ny3HsJd6Fg';
/** A GitHub token L1 detects by its shape. */
const PATTERN_VALUE = 'ghp_R4nd0mT0k3nV4lu3Th4tMustN3v3rL34kX9';

let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  removeTemps();
});

// Every file of the memory folder, -wal and -shm included, read raw.
function rawIndexBytes(dataDir: string): Buffer[] {
  const out: Buffer[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else out.push(readFileSync(path));
    }
  };
  visit(join(dataDir, 'memory'));
  return out;
}

describe('no secret value in any index', () => {
  it('keeps keychain values and detected secrets of repository files and tool output out of the index files', async () => {
    const dataDir = tempDir();
    const workspace = tempDir();
    await new FileKeychain(join(dataDir, 'keychain.json'), keySourceFor(dataDir, {})).add('deploy', 'github', KEYCHAIN_VALUE);
    writeTree(workspace, {
      'deploy/env.sh': `# deploy settings\nexport DEPLOY_PASSWORD_VALUE=${KEYCHAIN_VALUE}\n`,
      'src/client.ts': `// the client token\nconst token = "${PATTERN_VALUE}";\nexport const clientName = "nodwyn";\n`,
      'src/plain.ts': 'export const plainWords = "nothing secret here";\n',
    });
    running = await startTestKernel({ plugins: [keychainPlugin, redactL1Plugin, redactL2Plugin, toolsCorePlugin, memoryPlugin], workspace, dataDir });
    const kernel = running;
    const session = kernel.session();
    // Tool output carrying both values, logged (redacted) and then indexed from the log.
    content(await kernel.apply('read_file', { path: 'deploy/env.sh' }, { session }));
    content(await kernel.apply('read_file', { path: 'src/client.ts' }, { session }));
    const repo = content(await kernel.apply('search_repo', { query: 'token' }, { session }));
    expect(repo).toContain('src/client.ts:2:const token = "[REDACTED');
    expect(content(await kernel.apply('search_repo', { query: 'deploy' }, { session }))).toMatch(/^deploy\/env\.sh:1:# deploy settings\ndeploy\/env\.sh:2:export DEPLOY_PASSWORD_VALUE=\[REDACTED/);
    expect(content(await kernel.apply('search_repo', { query: 'plainWords' }, { session }))).toBe('src/plain.ts:1:export const plainWords = "nothing secret here";');
    expect(content(await kernel.apply('search_session', { query: 'client token' }, { session }))).toMatch(/^seq \d+ · tool\.completed/);

    const files = rawIndexBytes(dataDir);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const bytes of files) {
      expect(bytes.includes(KEYCHAIN_VALUE)).toBe(false);
      expect(bytes.includes(PATTERN_VALUE)).toBe(false);
    }
    // The values were really there to be found: the workspace holds them, and the index holds the words around them.
    expect(readFileSync(join(workspace, 'src/client.ts'), 'utf8')).toContain(PATTERN_VALUE);
    expect(files.some((bytes) => bytes.includes('clientName'))).toBe(true);
  });
});
