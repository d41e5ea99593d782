import { client, ndJsonStream, type ClientApp, type RequestPermissionRequest, type SessionNotification, type SessionUpdate } from '@agentclientprotocol/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolProgressOf } from '@nodwyn/protocol/tool-progress';
import { fileURLToPath } from 'node:url';
import { BIN, CliSandbox } from './cli.js';

const MCP_FIXTURE = fileURLToPath(new URL('../../../plugins/mcp/src/client/fixtures/stdio-server.mjs', import.meta.url));

type Answer = 'allow_once' | 'reject_once' | 'wait';

/** `nodwyn acp` as an editor runs it: a child process spoken to by the official ACP SDK client over its stdio. */
class AcpChild {
  readonly updates: SessionNotification[] = [];
  readonly asked: RequestPermissionRequest[] = [];
  readonly reads: string[] = [];
  answer: Answer = 'allow_once';
  readonly child: ChildProcess;
  stderr = '';
  readonly connection;

  constructor(sandbox: CliSandbox, files?: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, 'acp'], { cwd: sandbox.workspace, env: sandbox.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    let app: ClientApp = client({ name: 'e2e-editor' })
      .onNotification('session/update', ({ params }) => {
        this.updates.push(params);
      })
      .onRequest('session/request_permission', async ({ params, signal }) => {
        this.asked.push(params);
        if (this.answer === 'wait') {
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          return { outcome: { outcome: 'cancelled' } };
        }
        return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === this.answer)!.optionId } };
      });
    if (files) {
      app = app
        .onRequest('fs/read_text_file', ({ params }) => {
          this.reads.push(params.path);
          return { content: files[params.path] ?? '' };
        })
        .onRequest('fs/write_text_file', ({ params }) => {
          files[params.path] = params.content;
          return {};
        });
    }
    const stream = ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>);
    this.connection = app.connect(stream);
  }

  async initialize(fs = false) {
    return this.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs } },
      clientInfo: { name: 'e2e-editor', version: '1.0.0' },
    });
  }

  texts(kind: SessionUpdate['sessionUpdate']): string[] {
    return this.updates
      .map((u) => u.update)
      .filter((u) => u.sessionUpdate === kind)
      .map((u) => ('content' in u && !Array.isArray(u.content) && u.content?.type === 'text' ? u.content.text : ''));
  }

  of<K extends SessionUpdate['sessionUpdate']>(kind: K): Extract<SessionUpdate, { sessionUpdate: K }>[] {
    return this.updates.map((u) => u.update).filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
  }

  async stop(): Promise<number | null> {
    this.child.stdin!.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}

describe('nodwyn acp, driven by the official ACP client as an editor would', () => {
  let sandbox: CliSandbox;
  const children: AcpChild[] = [];

  beforeEach(() => {
    sandbox = new CliSandbox();
    sandbox.write('notes.txt', 'the answer is 42\n');
    const script = sandbox.script([
      { text: 'Reading, then making a file.', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }, { name: 'shell', args: { command: 'touch made.txt' } }] },
      { text: 'Finished: {{lastToolResult}}' },
    ]);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.child.kill('SIGKILL');
    sandbox.remove();
  });

  function start(files?: Record<string, string>): AcpChild {
    const child = new AcpChild(sandbox, files);
    children.push(child);
    return child;
  }

  it('runs a prompt whose shell call the editor allows, rejects, and cancels, then replays the session in a new process', async () => {
    const editor = start();
    const init = await editor.initialize();
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { image: false } }, agentInfo: { name: 'nodwyn' } });
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });

    const allowed = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make the file' }] });
    expect(allowed.stopReason).toBe('end_turn');
    expect(existsSync(join(sandbox.workspace, 'made.txt'))).toBe(true);
    expect(editor.asked).toHaveLength(1);
    expect(editor.asked[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(editor.asked[0]!.toolCall).toMatchObject({ title: 'shell touch made.txt', kind: 'execute' });
    const calls = editor.of('tool_call');
    expect(calls.map((c) => [c.title, c.kind])).toEqual([['read_file notes.txt', 'read'], ['shell touch made.txt', 'execute']]);
    const done = editor.of('tool_call_update').filter((u) => u.status === 'completed');
    expect(done.map((u) => u.toolCallId)).toEqual(calls.map((c) => c.toolCallId));
    expect(JSON.stringify(done[0]!.content)).toContain('the answer is 42');

    editor.answer = 'reject_once';
    const rejected = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    expect(rejected.stopReason).toBe('end_turn');
    const failed = editor.of('tool_call_update').filter((u) => u.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.rawOutput).toMatchObject({ status: 'error', category: 'CONFIRMATION_REQUIRED', code: 'CONFIRMATION_DECLINED' });

    editor.answer = 'wait';
    const asked = editor.asked.length;
    const cancelled = editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'once more' }] });
    await until(() => editor.asked.length > asked);
    await editor.connection.agent.notify('session/cancel', { sessionId });
    expect((await cancelled).stopReason).toBe('cancelled');
    expect(await editor.stop()).toBe(0);

    const events = sandbox.events(sessionId);
    expect(events.filter((e) => e.type === 'turn.ended').map((e) => e.payload.reason)).toEqual(['answer', 'answer', 'cancelled']);
    expect(events.filter((e) => e.type === 'confirmation.decided').map((e) => [e.payload.granted, e.payload.by])).toEqual([
      [true, expect.stringMatching(/^client-\d+:e2e-editor$/)],
      [false, expect.stringMatching(/^client-\d+:e2e-editor$/)],
      [false, 'cancel'],
    ]);
    expect(sandbox.run(['log', 'verify', sessionId]).code).toBe(0);

    const later = start();
    await later.initialize();
    await later.connection.agent.request('session/load', { sessionId, cwd: sandbox.workspace, mcpServers: [] });
    expect(later.texts('user_message_chunk')).toEqual(['make the file', 'again', 'once more']);
    expect(later.of('tool_call').map((c) => c.title)).toEqual(editor.of('tool_call').map((c) => c.title));
    expect(later.of('tool_call').map((c) => c.toolCallId)).toEqual(editor.of('tool_call').map((c) => c.toolCallId));
    expect(later.texts('agent_message_chunk').join('')).toContain('Reading, then making a file.');
    expect(await later.stop()).toBe(0);
  });

  it("reads and writes files through an editor that declares fs, so the model sees the unsaved buffer", async () => {
    const path = join(sandbox.workspace, 'notes.txt');
    const buffers: Record<string, string> = { [path]: 'unsaved: the answer is 43\n' };
    const script = sandbox.script([{ toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, { toolCalls: [{ name: 'edit_file', args: { path: 'notes.txt', old_string: '43', new_string: '44' } }] }, { text: 'Edited.' }]);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
    const editor = start(buffers);
    await editor.initialize(true);
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect((await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'bump it' }] })).stopReason).toBe('end_turn');
    expect(editor.reads).toContain(path);
    expect(JSON.stringify(editor.of('tool_call_update').find((u) => u.status === 'completed')?.content)).toContain('unsaved: the answer is 43');
    expect(buffers[path]).toBe('unsaved: the answer is 44\n');
    const diff = editor.of('tool_call_update').flatMap((u) => u.content ?? []).find((c) => c.type === 'diff');
    expect(diff).toMatchObject({ type: 'diff', path, oldText: '43', newText: '44' });
    await editor.stop();
  });

  it('offers a newly configured MCP server\'s tools from the first turn, and shows their progress to the editor', async () => {
    const script = sandbox.script([{ toolCalls: [{ name: 'mcp_fx_progress', args: { pause_ms: 300 } }] }, { text: 'done' }]);
    const server = `command = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MCP_FIXTURE)}]\n`;
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n[plugins."@nodwyn/plugin-mcp".servers.fx]\n${server}`);
    const editor = start();
    await editor.initialize();
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const answer = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make progress' }] });
    expect(answer.stopReason).toBe('end_turn');
    const progress = editor.of('tool_call_update').map((u) => toolProgressOf(u._meta)).filter((p) => p !== undefined);
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
    expect(editor.of('tool_call_update').at(-1)).toMatchObject({ status: 'completed' });
    expect(await editor.stop()).toBe(0);
  }, 60_000);

  it('starts the MCP servers the editor hands over with session/new, and their tools run in its turns', async () => {
    const script = sandbox.script([{ toolCalls: [{ name: 'mcp_zed_notes_read_note', args: { id: 'n7' } }] }, { text: 'done' }]);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
    const editor = start();
    const init = await editor.initialize();
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
    const { sessionId } = await editor.connection.agent.request('session/new', {
      cwd: sandbox.workspace,
      mcpServers: [{ name: 'zed_notes', command: process.execPath, args: [MCP_FIXTURE], env: [{ name: 'LEAK', value: 'none' }] }],
    });
    const answer = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read n7' }] });
    expect(answer.stopReason).toBe('end_turn');
    const done = editor.of('tool_call_update').filter((u) => u.status === 'completed');
    expect(JSON.stringify(done.at(-1)?.content)).toContain('note n7');
    expect(await editor.stop()).toBe(0);
  }, 60_000);

  it('answers bad input with JSON-RPC errors and keeps serving', async () => {
    const editor = start();
    const early = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] }).catch((e: unknown) => e);
    expect(early).toMatchObject({ code: -32600 });
    await editor.initialize();
    const missing = await editor.connection.agent.request('session/prompt', { sessionId: 's-missing', prompt: [{ type: 'text', text: 'x' }] }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: -32002, data: { category: 'NOT_FOUND', code: 'SESSION_NOT_FOUND' } });
    const image = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const refused = await editor.connection.agent
      .request('session/prompt', { sessionId: image.sessionId, prompt: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32602, data: { code: 'CONTENT_UNSUPPORTED', failed_parameter: '$.prompt[0]' } });
    editor.child.stdin!.write('{"jsonrpc":"2.0","id":99,"method":"session/list"\n');
    expect((await editor.connection.agent.request('session/list', {})).sessions.map((s) => s.sessionId)).toContain(image.sessionId);
    expect(await editor.stop()).toBe(0);
    expect(editor.stderr).toBe('');
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
