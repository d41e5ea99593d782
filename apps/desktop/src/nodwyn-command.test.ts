import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodwynCommand } from './nodwyn-command.js';

const ELECTRON = '/opt/nodwyn/nodwyn-desktop';

describe('nodwynCommand', () => {
  it('runs a $NODWYN_CLI script with Electron’s own Node, and an executable as it is', () => {
    expect(nodwynCommand({ env: { NODWYN_CLI: '/src/nodwyn.mjs' }, execPath: ELECTRON, resourcesPath: undefined })).toEqual({ command: ELECTRON, args: ['/src/nodwyn.mjs'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(nodwynCommand({ env: { NODWYN_CLI: '/usr/bin/nodwyn' }, execPath: ELECTRON, resourcesPath: undefined })).toEqual({ command: '/usr/bin/nodwyn', args: [] });
  });

  it('uses the CLI bundle packed into the resources, else nodwyn on the PATH', () => {
    const resources = mkdtempSync(join(tmpdir(), 'nodwyn-resources-'));
    try {
      expect(nodwynCommand({ env: {}, execPath: ELECTRON, resourcesPath: resources })).toEqual({ command: 'nodwyn', args: [] });
      mkdirSync(join(resources, 'nodwyn'));
      writeFileSync(join(resources, 'nodwyn', 'nodwyn.mjs'), '');
      expect(nodwynCommand({ env: {}, execPath: ELECTRON, resourcesPath: resources })).toEqual({ command: ELECTRON, args: [join(resources, 'nodwyn', 'nodwyn.mjs')], env: { ELECTRON_RUN_AS_NODE: '1' } });
    } finally {
      rmSync(resources, { recursive: true, force: true });
    }
  });
});
