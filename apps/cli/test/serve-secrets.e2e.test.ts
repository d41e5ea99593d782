import { connectDaemon } from '@nodwyn/client/node';
import type { ClientEvent } from '@nodwyn/protocol';
import { startWireServer, type WireServer } from '@nodwyn/testing';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

// A GitHub token of the real shape (L1 knows it) and a key only the keychain's memory (L2) knows.
const GITHUB = `ghp_${'k7Q2mW9pX4vB8nR3tY6uJ1cF5dL0sAzE3hG8'}`;
const KEY = 'Zq7Hk2mW9pX4vB8nR3tY6uJ1cF5dL0sA';
const ENV = { NODWYN_KEYCHAIN_PASSPHRASE: 'e2e-passphrase' };

function windows(secret: string, size = 6): string[] {
  return Array.from({ length: secret.length - size + 1 }, (_, i) => secret.slice(i, i + size));
}

describe('streamed text reaches a client of nodwyn serve only through the text layers', () => {
  let sandbox: CliSandbox;
  let server: WireServer;
  let daemon: ChildProcess | undefined;

  beforeEach(() => {
    sandbox = new CliSandbox();
  });
  afterEach(async () => {
    daemon?.kill('SIGKILL');
    await server.close();
    sandbox.remove();
  });

  it('never shows a secret the model splits across three deltas, known to L1 or only to the keychain', async () => {
    server = await startWireServer('openai-chat', [
      { kind: 'stream', text: ['Here it is: ', GITHUB.slice(0, 11), GITHUB.slice(11, 27), `${GITHUB.slice(27)} and `, KEY.slice(0, 10), KEY.slice(10, 21), `${KEY.slice(21)} done.`] },
    ]);
    expect(sandbox.run(['secret', 'add', 'model', '--class', 'control-plane'], KEY, undefined, ENV).code).toBe(0);
    expect(sandbox.run(['bind', 'add', 'control-plane', '--host', new URL(server.url).host, '--position', 'header:authorization', '--method', 'POST'], undefined, undefined, ENV).code).toBe(0);
    writeFileSync(
      join(sandbox.home, 'config.toml'),
      `[provider]\ndefault = "openai-compatible"\n[provider.openai-compatible]\nbase_url = "${server.url}"\nmodel = "m"\napi_key = "model"\n`,
    );
    daemon = sandbox.start(['serve', '--port', '0'], ENV);
    await new Promise((resolve) => daemon!.stdout!.once('data', resolve));
    const client = await connectDaemon({ home: sandbox.home, clientInfo: { name: 'e2e', version: '1.0.0' } });
    const frames: string[] = [];
    client.onEvent((event: ClientEvent) => frames.push(JSON.stringify(event)));
    const { sessionId } = await client.newSession(sandbox.workspace);
    await client.attach(sessionId, 0);
    await client.prompt(sessionId, 'show me');
    await client.close();
    const chunks = frames.filter((f) => f.includes('agent_message_chunk')).join('');
    expect(chunks).toContain('Here it is: ');
    expect(chunks).toContain('[REDACTED');
    for (const frame of frames) {
      for (const window of [...windows(GITHUB), ...windows(KEY)]) expect(frame).not.toContain(window);
    }
  });
});
