import 'reflect-metadata';
import { client, type AnyMessage, type ClientApp, type SessionNotification, type Stream } from '@agentclientprotocol/sdk';
import { EventLog, Kernel } from '@nodwyn/kernel';
import { API_VERSION, EgressSenderToken, TaintToken } from '@nodwyn/plugin-api';
import { PluginHost } from '@nodwyn/plugin-host';
import { loopDefaultPlugin } from '@nodwyn/plugin-loop-default';
import { providerScriptedPlugin } from '@nodwyn/plugin-provider-scripted';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentRuntime, AgentScope } from '../src/index.js';

/** A temp data folder and workspace, a real log file, and the real plugins a prompt needs. */
export class Sandbox {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-server-')));
  readonly home = join(this.root, 'home');
  readonly workspace = join(this.root, 'workspace');
  readonly key = randomBytes(32);
  script = '';

  constructor() {
    mkdirSync(this.home);
    mkdirSync(this.workspace);
  }

  /** Writes a scripted-provider script that every prompt plays. */
  replies(replies: unknown[]): void {
    this.script = join(this.root, `script-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(this.script, JSON.stringify({ replies }));
  }

  write(path: string, content: string): string {
    const full = join(this.workspace, path);
    writeFileSync(full, content);
    return full;
  }

  /** A runtime over one log file, with a kernel and plugin host per workspace, as the daemon has. */
  runtime(): AgentRuntime {
    const log = EventLog.open({ path: join(this.home, 'nodwyn.db'), key: this.key });
    const scopes = new Map<string, Promise<{ scope: AgentScope; host: PluginHost }>>();
    const boot = async (workspace: string) => {
      const kernel = Kernel.over(log, { workspace, protectedFolders: [{ path: this.home, name: "nodwyn's data folder" }] });
      const host = new PluginHost({ kernel: kernel.port(), apiVersion: API_VERSION, settings: {}, workspace, dataDir: this.home });
      kernel.useSender(() => host.service(EgressSenderToken));
      kernel.useTaint(() => host.service(TaintToken));
      const plugins = [toolsCorePlugin, loopDefaultPlugin, providerScriptedPlugin, redactL1Plugin];
      await host.load({ name: 'test', plugins: plugins.map((p) => ({ package: p.manifest.name, range: p.manifest.version, load: () => p })) });
      await host.start();
      const scope: AgentScope = {
        workspace,
        kernel,
        turn: async () => {
          const loop = kernel.loops.get('default');
          const provider = await kernel.providers.get('scripted').item.create({ script: this.script });
          return { provider, strategy: loop.item, strategyOwner: loop.owner, budgets: {} };
        },
      };
      return { scope, host };
    };
    return {
      log,
      scope: async (workspace) => {
        let entry = scopes.get(workspace);
        if (!entry) {
          entry = boot(workspace);
          scopes.set(workspace, entry);
        }
        return (await entry).scope;
      },
      close: async () => {
        for (const entry of scopes.values()) await (await entry).host.stopAll();
        log.close();
      },
    };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Two ACP streams joined in memory: what one side writes, the other reads. */
export function streamPair(): [Stream, Stream] {
  const a = new TransformStream<AnyMessage, AnyMessage>();
  const b = new TransformStream<AnyMessage, AnyMessage>();
  return [
    { readable: a.readable, writable: b.writable },
    { readable: b.readable, writable: a.writable },
  ];
}

/** An official ACP SDK client that records every update and answers permissions with `answer`. */
export function recordingClient(answer?: (options: { optionId: string; kind: string }[]) => string | undefined): { app: ClientApp; updates: SessionNotification[]; asked: unknown[]; logs: unknown[] } {
  const updates: SessionNotification[] = [];
  const asked: unknown[] = [];
  const logs: unknown[] = [];
  const app = client({ name: 'test-client' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onNotification('_nodwyn/log', { parse: (p: unknown) => p }, ({ params }) => {
      logs.push(params);
    })
    .onRequest('session/request_permission', async ({ params, signal }) => {
      asked.push(params);
      const chosen = answer?.(params.options);
      if (chosen) return { outcome: { outcome: 'selected', optionId: chosen } };
      // No answer from this client: wait until the agent withdraws the question.
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return { outcome: { outcome: 'cancelled' } };
    });
  return { app, updates, asked, logs };
}

/** Waits until `check` is true, polling; fails after `ms`. */
export async function until(check: () => boolean, ms = 5000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
