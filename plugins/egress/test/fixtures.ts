import { KeychainToken, TaintToken, type Keychain, type TaintTracker } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { egressPlugin } from '../src/index.js';

/** The keychain the tests use: fixed values, so a test can look for them where they must not be. */
export const SECRETS: Readonly<Record<string, { class: string; value: string }>> = {
  github: { class: 'github', value: 'ghp_T3stV4lue0123456789abcdefXYZwq' },
  stripe: { class: 'stripe', value: 'sk_test_Zq81mNbv72LkPp0XcVb3' },
};

/** A keychain service over a fixed map; `failing` makes every lookup throw, to test failing closed. */
export function keychainPlugin(options: { failing?: boolean } = {}) {
  const keychain: Keychain = {
    list: async () => Object.entries(SECRETS).map(([name, s]) => ({ name, class: s.class, created: '2026-01-01T00:00:00Z' })),
    info: async (name) => {
      if (options.failing) throw new Error('keychain locked');
      const secret = SECRETS[name];
      return secret ? { name, class: secret.class, created: '2026-01-01T00:00:00Z' } : undefined;
    },
    reveal: async (name) => {
      const secret = SECRETS[name];
      if (!secret) throw new Error(`no ${name}`);
      return secret.value;
    },
    store: async () => {
      throw new Error('the test keychain is fixed');
    },
    remove: async () => false,
  };
  return testPlugin('test-keychain', ['service:keychain'], (ctx) => ctx.services.provide(KeychainToken, keychain));
}

/** A plain taint tracker: a value is found in a text when the text contains it. */
export class StubTracker implements TaintTracker {
  readonly remembered: { session: string; value: string; tags: readonly string[] }[] = [];
  remember(session: string, value: string, tags: readonly string[]): void {
    this.remembered.push({ session, value, tags });
  }
  tagsOf(session: string, text: string): readonly string[] {
    return this.matches(session, text);
  }
  matches(session: string, text: string): readonly string[] {
    const tags = this.remembered.filter((r) => r.session === session && text.includes(r.value)).flatMap((r) => r.tags);
    return [...new Set(tags)].sort();
  }
}

/** Provides a tracker as the taint service. */
export function taintPlugin(tracker: TaintTracker) {
  return testPlugin('test-taint', ['service:taint'], (ctx) => ctx.services.provide(TaintToken, tracker));
}

/** What a loopback server saw of one request. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A server on 127.0.0.1 that records every request and answers with `reply`. Always `close()` it. */
export interface LoopbackServer {
  readonly port: number;
  readonly origin: string;
  readonly host: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

export type Reply = (seen: Seen, res: ServerResponse, server: { origin: string }) => void;

export async function loopbackServer(reply: Reply = (_seen, res) => res.end('ok')): Promise<LoopbackServer> {
  const seen: Seen[] = [];
  const state = { origin: '' };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(record);
      reply(record, res, state);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin: state.origin,
    host: `127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Fails when any of the things, as JSON, holds the value, its base64 or its hex. */
/** Loopback servers for one test file: `server(reply)` starts one, and each is closed after its test. */
export function useLoopbackServers(): (reply?: Reply) => Promise<LoopbackServer> {
  const servers: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (reply) => {
    const s = await loopbackServer(reply);
    servers.push(s);
    return s;
  };
}

export function expectNoValue(value: string, ...things: unknown[]): void {
  const text = JSON.stringify(things);
  const bytes = Buffer.from(value, 'utf8');
  for (const form of [value, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')]) expect(text).not.toContain(form);
}

/** Points NODWYN_HOME at a fresh folder for each test (where bindings.toml lives) and puts it back after. */
export function useTempHome(): { readonly dir: () => string; write(toml: string): void } {
  let dir = '';
  const previous = process.env.NODWYN_HOME;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nodwyn-egress-'));
    process.env.NODWYN_HOME = dir;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.NODWYN_HOME;
    else process.env.NODWYN_HOME = previous;
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir, write: (toml) => writeFileSync(join(dir, 'bindings.toml'), toml) };
}

/** A kernel with the egress plugin and the test keychain (and a tracker, when given). */
export function startEgress(options: { settings?: Record<string, unknown>; tracker?: TaintTracker; failingKeychain?: boolean } = {}): Promise<TestKernel> {
  const plugins = [keychainPlugin({ failing: options.failingKeychain }), ...(options.tracker ? [taintPlugin(options.tracker)] : []), egressPlugin];
  return startTestKernel({ plugins, settings: options.settings ?? {} });
}

/** The payloads of a session's `egress.decided` events. */
export function decisions(t: TestKernel, session: string): Record<string, unknown>[] {
  return t.events(session).filter((e) => e.type === 'egress.decided').map((e) => e.payload as Record<string, unknown>);
}
