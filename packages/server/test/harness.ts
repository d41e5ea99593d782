import 'reflect-metadata';
import { client, type AnyMessage, type ClientApp, type SessionNotification, type Stream } from '@agentclientprotocol/sdk';
import { EventLog, Kernel } from '@nodwyn/kernel';
import { API_VERSION, EgressSenderToken, TaintToken, type PluginDefinition, type ProtectedFolder } from '@nodwyn/plugin-api';
import { capabilitiesPlugin } from '@nodwyn/plugin-capabilities';
import { egressPlugin } from '@nodwyn/plugin-egress';
import { PluginHost, type Distribution } from '@nodwyn/plugin-host';
import { keychainPlugin } from '@nodwyn/plugin-keychain';
import { loopDefaultPlugin } from '@nodwyn/plugin-loop-default';
import { providerAnthropicPlugin } from '@nodwyn/plugin-provider-anthropic';
import { providerOpenAiPlugin } from '@nodwyn/plugin-provider-openai';
import { providerScriptedPlugin } from '@nodwyn/plugin-provider-scripted';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { loadConfig, repoTrust, turnSetup, withCurrentProvider, type WorkspaceScope } from '@nodwyn/runtime';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentApp, SessionManager, type AgentRuntime, type AgentScope } from '../src/index.js';

/** The plugins every sandbox scope loads: what a prompt, provider setup and the agent commands need. */
const PLUGINS = [toolsCorePlugin, loopDefaultPlugin, providerScriptedPlugin, redactL1Plugin, keychainPlugin, egressPlugin, providerAnthropicPlugin, providerOpenAiPlugin, capabilitiesPlugin];

/**
 * A temp data folder (NODWYN_HOME, set for this process while the sandbox lives, as the egress plugin
 * finds bindings.toml through it) and workspace, a real log file, and the real plugins.
 */
export class Sandbox {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-server-')));
  readonly home = join(this.root, 'home');
  readonly workspace = join(this.root, 'workspace');
  readonly configFile = join(this.home, 'config.toml');
  readonly key = randomBytes(32);
  script = '';
  readonly #previousHome = process.env.NODWYN_HOME;

  constructor() {
    mkdirSync(this.home);
    mkdirSync(this.workspace);
    process.env.NODWYN_HOME = this.home;
  }

  /** nodwyn's folders, as the CLI protects them (the data folder is the config folder here). */
  get protectedFolders(): ProtectedFolder[] {
    return [{ path: this.home, name: "nodwyn's data folder" }];
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

  /**
   * A runtime over one log file, with a kernel and plugin host per workspace, as the daemon has: each
   * prompt made with `[provider]` read again from config.toml (the scripted provider and the current
   * script when it names none) and the session's own model over it.
   */
  runtime(extra: readonly PluginDefinition[] = []): AgentRuntime {
    const log = EventLog.open({ path: join(this.home, 'nodwyn.db'), key: this.key });
    const scopes = new Map<string, Promise<{ scope: AgentScope; host: PluginHost }>>();
    const plugins = [...PLUGINS, ...extra];
    const distribution: Distribution = { name: 'test', plugins: plugins.map((p) => ({ package: p.manifest.name, range: p.manifest.version, load: () => p })) };
    const boot = async (workspace: string) => {
      const kernel = Kernel.over(log, { workspace, protectedFolders: this.protectedFolders });
      const config = loadConfig(this.configFile);
      const host = new PluginHost({ kernel: kernel.port(), apiVersion: API_VERSION, settings: config, workspace, dataDir: this.home });
      kernel.useSender(() => host.service(EgressSenderToken));
      kernel.useTaint(() => host.service(TaintToken));
      await host.load(distribution);
      await host.start();
      const booted: WorkspaceScope = { kernel, host, config, workspace, distribution, close: async () => void (await host.stopAll()) };
      const scope: AgentScope = {
        workspace,
        kernel,
        turn: (choice) => turnSetup({ ...booted, config: withCurrentProvider(config, this.configFile) }, { script: this.script, ...choice }),
        agentCommands: () => host.agentCommands(),
        trust: () => repoTrust(workspace, { NODWYN_HOME: this.home }),
      };
      return { scope, host };
    };
    return {
      log,
      configFile: this.configFile,
      protectedFolders: this.protectedFolders,
      scope: async (workspace) => {
        let entry = scopes.get(workspace);
        if (!entry) {
          entry = boot(workspace);
          scopes.set(workspace, entry);
        }
        return (await entry).scope;
      },
      restart: async () => {
        const workspaces = [...scopes.keys()];
        for (const entry of scopes.values()) await (await entry).host.stopAll();
        scopes.clear();
        for (const workspace of workspaces) scopes.set(workspace, boot(workspace));
        await Promise.all(scopes.values());
        return workspaces.length;
      },
      close: async () => {
        for (const entry of scopes.values()) await (await entry).host.stopAll();
        log.close();
      },
    };
  }

  remove(): void {
    if (this.#previousHome === undefined) delete process.env.NODWYN_HOME;
    else process.env.NODWYN_HOME = this.#previousHome;
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

/** An agent over a sandbox's runtime, served in-process to official ACP clients. */
export class InProcessAgent {
  readonly runtime: AgentRuntime;
  readonly sessions: SessionManager;

  constructor(
    readonly sandbox: Sandbox,
    extra: readonly PluginDefinition[] = [],
  ) {
    this.runtime = sandbox.runtime(extra);
    this.sessions = new SessionManager(this.runtime, { defaultWorkspace: sandbox.workspace });
  }

  /** A recording official ACP client on a fresh in-process connection, initialized. */
  async connect(answer?: Parameters<typeof recordingClient>[0]) {
    const [agentEnd, clientEnd] = streamPair();
    agentApp(this.sessions, { name: 'nodwyn', version: '0.0.0-test' }, () => undefined).connect(agentEnd);
    const recorder = recordingClient(answer);
    const connection = recorder.app.connect(clientEnd);
    await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    return { ...recorder, connection, agent: connection.agent };
  }

  async close(): Promise<void> {
    await this.sessions.shutdown();
    await this.runtime.close();
  }
}

/** The JSON-RPC error a request failed with (the test fails if it did not). */
export async function rpcFailure(request: Promise<unknown>): Promise<{ code: number; data: Record<string, unknown> }> {
  const outcome = await request.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a JSON-RPC error, got ${JSON.stringify(outcome.value)}`);
  return outcome.error as { code: number; data: Record<string, unknown> };
}

/** The text of every agent_message_chunk a client received for a session, joined. */
export function agentText(updates: readonly SessionNotification[], sessionId?: string): string {
  return updates
    .filter((u) => (sessionId === undefined || u.sessionId === sessionId) && u.update.sessionUpdate === 'agent_message_chunk')
    .map((u) => ('content' in u.update && !Array.isArray(u.update.content) && u.update.content?.type === 'text' ? u.update.content.text : ''))
    .join('');
}
