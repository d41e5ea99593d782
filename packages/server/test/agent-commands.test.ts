import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { API_VERSION, definePlugin } from '@nodwyn/plugin-api';
import { readRepoFolder, TrustStore, trustRecordFor, trustStorePath } from '@nodwyn/runtime';
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeOpenAi } from './fake-openai.js';
import { agentText, InProcessAgent, Sandbox, until } from './harness.js';

const TOKEN = 'ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';

/** A plugin with two agent commands: one that says a token back, one that throws. */
const testCommandsPlugin = definePlugin({
  manifest: { name: '@test/plugin-commands', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['agent-command:leak', 'agent-command:boom'] },
  register(ctx) {
    ctx.agentCommands.register({ name: 'leak', description: 'Says a token back, which the text layers must catch', hint: 'a word', run: async ({ input, session }) => `${input} ${TOKEN} (${session})` });
    ctx.agentCommands.register({
      name: 'boom',
      description: 'Throws instead of answering',
      run: async () => {
        throw new Error('the plugin broke');
      },
    });
  },
});

let sandbox: Sandbox;
let agent: InProcessAgent;
beforeEach(() => {
  sandbox = new Sandbox();
  agent = new InProcessAgent(sandbox, [testCommandsPlugin]);
  vi.stubEnv('ANTHROPIC_API_KEY', '');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await agent.close();
  sandbox.remove();
});

/** A client with a session in the sandbox's workspace, and a way to type into it. */
async function session() {
  const client = await agent.connect();
  const { sessionId } = await client.agent.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] });
  let seen = 0;
  /** Sends `text` as a prompt; resolves with the response and the text the agent said for it. */
  const type = async (text: string) => {
    const response = await client.agent.request<{ stopReason: string; _meta?: { nodwyn?: { envelope?: Record<string, unknown> } } }>('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    const all = agentText(client.updates, sessionId);
    const said = all.slice(seen);
    seen = all.length;
    return { response, said };
  };
  return { ...client, sessionId, type };
}

describe('agent commands over the protocol', () => {
  it("announces the agent's commands and the plugins', runs a plugin's through the text layers, and survives one that throws", async () => {
    sandbox.replies([{ text: 'still here' }]);
    const { updates, sessionId, type } = await session();
    await until(() => updates.some((u) => u.update.sessionUpdate === 'available_commands_update'));
    const announced = updates.find((u) => u.update.sessionUpdate === 'available_commands_update')!.update as { availableCommands: AvailableCommand[] };
    expect(announced.availableCommands.map((c) => c.name)).toEqual(['title', 'tools', 'model', 'cost', 'verify', 'trust', 'compact', 'capabilities', 'leak', 'boom']);
    expect(announced.availableCommands.find((c) => c.name === 'leak')).toMatchObject({ input: { hint: 'a word' } });

    const leak = await type('/leak hello');
    expect(leak.response.stopReason).toBe('end_turn');
    expect(leak.said).toBe(`hello [REDACTED github-token] (${sessionId})`);
    expect(JSON.stringify(updates)).not.toContain(TOKEN);

    const boom = await type('/boom');
    expect(boom.said).toMatch(/^\/boom failed \(COMMAND_FAILED\): An unexpected error occurred: .*the plugin broke/);
    expect(boom.response._meta?.nodwyn?.envelope).toMatchObject({ category: 'INTERNAL', code: 'COMMAND_FAILED', plugin: '@test/plugin-commands', operation: '/boom' });
    expect((await type('and now a prompt')).said).toBe('still here');
    // Command output is shown, not logged: the log has the prompt, not the commands or their answers.
    const logged = JSON.stringify(agent.runtime.log.read(sessionId));
    expect([logged.includes('/leak'), logged.includes('and now a prompt')]).toEqual([false, true]);
  });

  it('/compact (the loop plugin\'s) summarises the older steps at once, with its focus, in a turn that logs no prompt', async () => {
    for (let i = 0; i < 6; i++) sandbox.write(`f${i}.txt`, `file ${i}\n`);
    const reads = Array.from({ length: 6 }, (_, i) => ({ text: i === 0 ? 'Reading the files.' : '', toolCalls: [{ name: 'read_file', args: { path: `f${i}.txt` } }] }));
    sandbox.replies([...reads, { text: 'done' }]);
    const { sessionId, type } = await session();
    expect((await type('read the six files')).response.stopReason).toBe('end_turn');
    const compacted = await type('/compact the file names');
    expect(compacted.response.stopReason).toBe('end_turn');
    expect(compacted.said).toMatch(/^Summarised the older steps \(1 summary\): the window went from about \d+ to \d+ tokens\./);
    const raw = new Database(join(sandbox.home, 'nodwyn.db'), { readonly: true });
    try {
      const events = raw.prepare('SELECT seq, type, payload FROM events WHERE session = ? ORDER BY seq').all(sessionId) as { seq: number; type: string; payload: string }[];
      const of = (t: string) => events.filter((e) => e.type === t).map((e): Record<string, unknown> & { seq: number } => ({ ...(JSON.parse(e.payload) as Record<string, unknown>), seq: e.seq }));
      expect(of('compaction.requested')).toMatchObject([{ focus: 'the file names' }]);
      const [summary] = of('summary.added');
      expect(summary).toMatchObject({ text: 'Reading the files.', focus: 'the file names' });
      // The two oldest of the six steps (call and result each), and never the ask before them.
      const firstCall = of('message.assistant')[0]!;
      expect(summary!.from_seq).toBe(firstCall.seq);
      expect(summary!.seq).toBeGreaterThan(of('compaction.requested')[0]!.seq);
      // The command's turn is logged, but nothing in it is the person's words.
      expect(of('message.user').map((e) => e.text)).toEqual(['read the six files']);
      expect(of('turn.ended').at(-1)).toMatchObject({ reason: 'answer' });
    } finally {
      raw.close();
    }
  });

  it('lists the capabilities the model registered (/capabilities, from the capabilities plugin)', async () => {
    const { type } = await session();
    expect((await type('/capabilities')).said).toMatch(/^No capabilities are registered/);
  });

  it('/verify checks the hash chain of the session and names the first bad event', async () => {
    sandbox.replies([{ text: 'answer' }]);
    const { type, sessionId } = await session();
    await type('a prompt');
    expect((await type('/verify')).said).toMatch(/^The log of this session verifies: 6 events, each chained/);
    const raw = new Database(join(sandbox.home, 'nodwyn.db'));
    try {
      raw.exec('DROP TRIGGER IF EXISTS events_no_update');
      raw.prepare(`UPDATE events SET payload = '{"text":"edited"}' WHERE session = ? AND type = 'message.user'`).run(sessionId);
    } finally {
      raw.close();
    }
    expect((await type('/verify')).said).toMatch(/^The log of this session does NOT verify: event 3: hash_mismatch/);
  });

  it("/trust says where the workspace's .nodwyn/ stands, and that trusting is `nodwyn trust` in a terminal", async () => {
    const { type } = await session();
    expect((await type('/trust')).said).toMatch(/^No repository config here/);
    mkdirSync(join(sandbox.workspace, '.nodwyn'));
    writeFileSync(join(sandbox.workspace, '.nodwyn', 'config.toml'), '[budgets]\nmax_turns = 3\n');
    const untrusted = (await type('/trust')).said;
    expect(untrusted).toContain('.nodwyn/config.toml in');
    expect(untrusted).toContain('is not trusted');
    expect(untrusted).toContain(`cd ${sandbox.workspace} && nodwyn trust`);
    TrustStore.open(trustStorePath({ NODWYN_HOME: sandbox.home })).set(sandbox.workspace, trustRecordFor(readRepoFolder(sandbox.workspace, [sandbox.home])));
    expect((await type('/trust')).said).toMatch(/is trusted \(1 file, sha256:[0-9a-f]{64}, since \d{4}-/);
    writeFileSync(join(sandbox.workspace, '.nodwyn', 'config.toml'), '[budgets]\nmax_turns = 30\n');
    expect((await type('/trust')).said).toContain('changed since you trusted it (config.toml (changed))');
  });
});

describe('/cost and /model', () => {
  it('/cost sums the tokens and cost of the session and of its last turn from the log', async () => {
    const local = await fakeOpenAi('ok');
    try {
      writeFileSync(
        sandbox.configFile,
        `[provider]\ndefault = "openai-compatible"\n\n[provider.openai-compatible]\nmodel = "local-model"\nbase_url = "${local.url}"\n\n[prices.openai-compatible.local-model]\ninput = 1000\noutput = 2000\n`,
      );
      const { type } = await session();
      expect((await type('/cost')).said).toBe('No model calls in this session yet.');
      await type('one');
      await type('two');
      expect((await type('/cost')).said).toBe(['This session: 24 tokens in, 6 out, $0.0360, over 2 model calls.', 'Last turn: 12 tokens in, 3 out, $0.0180, over 1 model call.'].join('\n'));
    } finally {
      await local.close();
    }
  });

  it('/model shows the model, switches this session only (logged), refuses an unknown or unusable one, and a fork keeps it', async () => {
    const local = await fakeOpenAi('ok');
    try {
      writeFileSync(sandbox.configFile, `[provider]\ndefault = "openai-compatible"\n\n[provider.openai-compatible]\nmodel = "first-model"\nbase_url = "${local.url}"\n`);
      const { type, sessionId, agent: acp } = await session();
      const shown = (await type('/model')).said;
      expect(shown).toContain('This session uses openai-compatible / first-model (from config.toml).');
      expect(shown).toContain('openai-compatible lists no models');

      expect((await type('/model second-model')).said).toBe('This session now uses openai-compatible / second-model, from its next prompt on.');
      await type('hello');
      expect(local.seen.at(-1)!.body.model).toBe('second-model');
      const configured = agent.runtime.log.read(sessionId).filter((e) => e.type === 'session.configured');
      expect(configured.map((e) => [e.actor, e.payload])).toEqual([['user', { provider: 'openai-compatible', model: 'second-model' }]]);
      expect((await type('/model')).said).toContain('openai-compatible / second-model (chosen in this session with /model)');

      const unknown = (await type('/model anthropic/claude-bogus')).said;
      expect(unknown).toMatch(/^anthropic has no model "claude-bogus"\. Known: claude-opus-4-8, /);
      const unusable = (await type('/model anthropic/claude-sonnet-4-5')).said;
      expect(unusable).toMatch(/^Not switched: anthropic \/ claude-sonnet-4-5 cannot run \(CREDENTIAL_MISSING\)/);
      expect(agent.runtime.log.read(sessionId).filter((e) => e.type === 'session.configured')).toHaveLength(1);

      // Another session follows config.toml; a fork keeps its parent's choice.
      const other = (await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] })).sessionId;
      await acp.request('session/prompt', { sessionId: other, prompt: [{ type: 'text', text: 'elsewhere' }] });
      expect(local.seen.at(-1)!.body.model).toBe('first-model');
      const fork = (await acp.request<{ sessionId: string }>('_nodwyn/session/fork', { sessionId })).sessionId;
      await acp.request('session/prompt', { sessionId: fork, prompt: [{ type: 'text', text: 'forked' }] });
      expect(local.seen.at(-1)!.body.model).toBe('second-model');
    } finally {
      await local.close();
    }
  });
});
