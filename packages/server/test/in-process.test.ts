import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentApp, SessionManager, type AgentRuntime } from '../src/index.js';
import { recordingClient, Sandbox, streamPair, until } from './harness.js';

const info = { name: 'nodwyn', version: '0.0.0-test' };

describe('the agent over an in-process stream, driven by the official ACP client', () => {
  let sandbox: Sandbox;
  let runtime: AgentRuntime;
  let sessions: SessionManager;

  beforeEach(() => {
    sandbox = new Sandbox();
    runtime = sandbox.runtime();
    sessions = new SessionManager(runtime);
  });
  afterEach(async () => {
    await sessions.shutdown();
    await runtime.close();
    sandbox.remove();
  });

  function connect(answer?: Parameters<typeof recordingClient>[0]) {
    const [agentEnd, clientEnd] = streamPair();
    agentApp(sessions, info, () => undefined).connect(agentEnd);
    const recorder = recordingClient(answer);
    return { ...recorder, connection: recorder.app.connect(clientEnd) };
  }

  it('initializes honestly, runs a prompt with a tool call, and streams it as ACP updates ending in end_turn', async () => {
    sandbox.write('app.ts', 'export const greeting = "hello";\n');
    sandbox.replies([{ text: 'Let me look.', toolCalls: [{ name: 'read_file', args: { path: 'app.ts' } }] }, { text: 'It says hello.' }]);
    const { connection, updates } = connect();
    const init = await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: false, embeddedContext: true } });
    const { sessionId } = await connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const response = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what does app.ts say?' }] });
    expect(response.stopReason).toBe('end_turn');
    await until(() => updates.some((u) => u.update.sessionUpdate === 'agent_message_chunk' && textOf(u.update).includes('hello')));
    const kinds = updates.map((u) => u.update.sessionUpdate);
    expect(kinds).toContain('available_commands_update');
    const call = updates.find((u) => u.update.sessionUpdate === 'tool_call')!.update as Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>;
    expect(call).toMatchObject({ title: 'read_file app.ts', kind: 'read', status: 'pending', locations: [{ path: `${sandbox.workspace}/app.ts` }] });
    const done = updates.map((u) => u.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>;
    expect(done.toolCallId).toBe(call.toolCallId);
    expect(JSON.stringify(done.content)).toContain('greeting');
    const text = updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk').map((u) => textOf(u.update)).join('');
    expect(text).toBe('Let me look.It says hello.');
  });

  it('refuses a second prompt on a busy session with a SESSION_BUSY envelope, and serves other sessions meanwhile', async () => {
    sandbox.replies([{ toolCalls: [{ name: 'shell', args: { command: 'sleep 1' } }] }, { text: 'done' }]);
    const { connection } = connect((options) => options.find((o) => o.kind === 'allow_once')?.optionId);
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const { sessionId } = await connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const first = connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'sleep' }] });
    await until(() => sessions.live(sessionId)?.state !== 'idle');
    const second = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: -32000, data: { category: 'PRECONDITION_FAILED', code: 'SESSION_BUSY' } });
    expect((await first).stopReason).toBe('end_turn');
  });

  it('answers invalid params with -32602 and the envelope, and an unknown session with -32002', async () => {
    const { connection } = connect();
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const bad = await connection.agent.request('session/new', { cwd: 'relative/path', mcpServers: [] }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: -32602, data: { status: 'error', category: 'VALIDATION_FAILED', failed_parameter: '$.cwd' } });
    const unknown = await connection.agent.request('session/prompt', { sessionId: 's-nope', prompt: [{ type: 'text', text: 'hi' }] }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32002, data: { category: 'NOT_FOUND', code: 'SESSION_NOT_FOUND' } });
  });
});

function textOf(update: SessionUpdate): string {
  return 'content' in update && update.content && !Array.isArray(update.content) && update.content.type === 'text' ? update.content.text : '';
}
