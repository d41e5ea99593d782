import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeOpenAi } from './fake-openai.js';
import { agentText, InProcessAgent, rpcFailure, Sandbox, until } from './harness.js';

let sandbox: Sandbox;
let agent: InProcessAgent;
beforeEach(() => {
  sandbox = new Sandbox();
  agent = new InProcessAgent(sandbox);
});
afterEach(async () => {
  await agent.close();
  sandbox.remove();
});

type Logged = { sessionId: string; event: { seq: number; type: string; payload: Record<string, unknown> } };

describe('_nodwyn/session/fork', () => {
  it('starts a live session from a copy of the window at a seq, attached to the caller, in the same workspace', async () => {
    const model = await fakeOpenAi('noted');
    try {
      writeFileSync(sandbox.configFile, `[provider]\ndefault = "openai-compatible"\n\n[provider.openai-compatible]\nmodel = "local"\nbase_url = "${model.url}"\n`);
      const { agent: acp, updates, logs } = await agent.connect();
      const { sessionId } = await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] });
      await acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'one' }] });
      const afterFirst = agent.runtime.log.head(sessionId)!.seq;
      await acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'two' }] });

      const fork = await acp.request<{ sessionId: string }>('_nodwyn/session/fork', { sessionId, atSeq: afterFirst });
      expect(fork.sessionId).not.toBe(sessionId);
      expect(agent.sessions.live(fork.sessionId)).toBeDefined();
      const created = agent.runtime.log.read(fork.sessionId, 1, 1)[0]!;
      expect(created.payload).toMatchObject({ workspace: sandbox.workspace, forked_from: { session: sessionId, seq: afterFirst } });
      // Attached: its log from seq 0 arrived as _nodwyn/log, and its commands were announced.
      await until(() => (logs as Logged[]).some((l) => l.sessionId === fork.sessionId && l.event.type === 'session.created'));
      await until(() => updates.some((u) => u.sessionId === fork.sessionId && u.update.sessionUpdate === 'available_commands_update'));

      // Its window is the parent's up to the fork point: the first exchange, not the second.
      await acp.request('session/prompt', { sessionId: fork.sessionId, prompt: [{ type: 'text', text: 'three' }] });
      expect(agentText(updates, fork.sessionId)).toBe('noted');
      const sent = JSON.stringify(model.seen[2]!.body.messages);
      expect([sent.includes('one'), sent.includes('two'), sent.includes('three')]).toEqual([true, false, true]);
    } finally {
      await model.close();
    }
  });

  it('answers an unknown session with -32002 SESSION_NOT_FOUND and a seq out of range with the kernel\'s -32602', async () => {
    const { agent: acp } = await agent.connect();
    expect(await rpcFailure(acp.request('_nodwyn/session/fork', { sessionId: 's-nope' }))).toMatchObject({ code: -32002, data: { code: 'SESSION_NOT_FOUND' } });
    const { sessionId } = await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect(await rpcFailure(acp.request('_nodwyn/session/fork', { sessionId, atSeq: 999 }))).toMatchObject({
      code: -32602,
      data: { category: 'VALIDATION_FAILED', code: 'SESSION_SEQ_OUT_OF_RANGE' },
    });
  });
});

describe('_nodwyn/prompts/history', () => {
  it("lists the workspace's prompts newest first, each once, without slash commands or other workspaces', at most limit", async () => {
    sandbox.replies(Array.from({ length: 8 }, () => ({ text: 'ok' })));
    const other = join(sandbox.root, 'other');
    mkdirSync(other);
    const { agent: acp } = await agent.connect();
    const prompt = (sessionId: string, text: string) => acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    const first = (await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] })).sessionId;
    await prompt(first, 'fix the parser');
    await prompt(first, '/usr/bin is missing from PATH');
    await prompt(first, '/title Parser work');
    const elsewhere = (await acp.request<{ sessionId: string }>('session/new', { cwd: other, mcpServers: [] })).sessionId;
    await prompt(elsewhere, 'not this workspace');
    const second = (await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] })).sessionId;
    await prompt(second, 'add a test');
    await prompt(second, '/unknowncommand goes to the model');
    await prompt(second, 'fix the parser');

    const history = await acp.request<{ prompts: string[] }>('_nodwyn/prompts/history', { workspace: sandbox.workspace });
    expect(history.prompts).toEqual(['fix the parser', 'add a test', '/usr/bin is missing from PATH']);
    expect((await acp.request<{ prompts: string[] }>('_nodwyn/prompts/history', { workspace: sandbox.workspace, limit: 2 })).prompts).toEqual(['fix the parser', 'add a test']);
    expect((await acp.request<{ prompts: string[] }>('_nodwyn/prompts/history', { workspace: other })).prompts).toEqual(['not this workspace']);
    expect(await rpcFailure(acp.request('_nodwyn/prompts/history', { workspace: 'relative' }))).toMatchObject({ code: -32602, data: { code: 'WORKSPACE_INVALID', failed_parameter: '$.workspace' } });
  });
});

describe('_nodwyn/files/complete', () => {
  function tree(): void {
    const files: Record<string, string> = {
      '.gitignore': 'dist/\n*.log\n',
      'README.md': '# r\n',
      'debug.log': 'x',
      'src/a.ts': '',
      'src/App.tsx': '',
      'src/app/index.ts': '',
      'src/gen/.gitignore': '*.gen.ts\n',
      'src/gen/types.gen.ts': '',
      'src/gen/keep.ts': '',
      'dist/bundle.js': '',
      'node_modules/pkg/index.js': '',
      '.git/config': '',
      '.nodwyn/config.toml': '',
      'docs/.nodwyn/x': '',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(sandbox.workspace, path, '..'), { recursive: true });
      writeFileSync(join(sandbox.workspace, path), text);
    }
    symlinkSync(sandbox.home, join(sandbox.workspace, 'nodwyn-home'));
  }

  it('lists what starts with the prefix, folders with a slash, shortest first, leaving out ignored and nodwyn\'s folders', async () => {
    tree();
    const { agent: acp } = await agent.connect();
    const complete = async (prefix: string, limit?: number) =>
      (await acp.request<{ paths: string[] }>('_nodwyn/files/complete', { workspace: sandbox.workspace, prefix, ...(limit ? { limit } : {}) })).paths;
    const all = await complete('');
    expect(all).toEqual(['src/', 'docs/', 'src/a.ts', 'src/app/', 'src/gen/', 'README.md', '.gitignore', 'src/App.tsx', 'src/gen/keep.ts', 'src/app/index.ts', 'src/gen/.gitignore']);
    expect(await complete('src/a')).toEqual(['src/a.ts', 'src/app/', 'src/app/index.ts']);
    expect(await complete('src/A')).toEqual(['src/App.tsx']);
    // Nothing with that case: the same without it.
    expect(await complete('SRC/AP')).toEqual(['src/app/', 'src/App.tsx', 'src/app/index.ts']);
    expect(await complete('./src/gen/')).toEqual(['src/gen/keep.ts', 'src/gen/.gitignore']);
    expect(await complete('', 3)).toEqual(['src/', 'docs/', 'src/a.ts']);
    expect(await complete('dist/')).toEqual([]);
    expect(await complete('nodwyn-home')).toEqual([]);
  });

  it('refuses prefixes that leave the workspace, a workspace that is not a folder, and one of nodwyn\'s own folders', async () => {
    const { agent: acp } = await agent.connect();
    for (const prefix of ['../', 'src/../../etc', '/etc/passwd', 'a\u0000b']) {
      expect(await rpcFailure(acp.request('_nodwyn/files/complete', { workspace: sandbox.workspace, prefix })), prefix).toMatchObject({
        code: -32602,
        data: { code: 'PREFIX_INVALID', failed_parameter: '$.prefix' },
      });
    }
    expect(await rpcFailure(acp.request('_nodwyn/files/complete', { workspace: join(sandbox.workspace, '..', 'nope'), prefix: '' }))).toMatchObject({ code: -32602, data: { code: 'WORKSPACE_INVALID' } });
    expect(await rpcFailure(acp.request('_nodwyn/files/complete', { workspace: sandbox.home, prefix: '' }))).toMatchObject({ code: -32000, data: { category: 'PERMISSION_DENIED', code: 'WORKSPACE_PROTECTED' } });
  });
});
