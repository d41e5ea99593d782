import { describe, expect, it } from 'vitest';
import { EnvelopeError, type ApplyResult, type AssistantMessage, type ToolCallResult, type TurnFloor } from '@nodwyn/plugin-api';
import { defaultLoop } from './default-loop.js';

/** A floor that answers `callModel` from a list and records every call the strategy makes, in order. */
class RecordingFloor implements TurnFloor {
  readonly session = 'session-under-test';
  readonly signal = new AbortController().signal;
  readonly calls: string[] = [];
  readonly ran: AssistantMessage[] = [];

  constructor(
    private readonly replies: (AssistantMessage | Error)[],
    private readonly toolFailure?: Error,
  ) {}

  async window() {
    this.calls.push('window');
    return [];
  }

  tools() {
    this.calls.push('tools');
    return [];
  }

  async callModel(): Promise<AssistantMessage> {
    this.calls.push('callModel');
    const reply = this.replies.shift();
    if (reply === undefined) throw new Error('the strategy called the model more often than the test expects');
    if (reply instanceof Error) throw reply;
    return reply;
  }

  async runToolCalls(message: AssistantMessage): Promise<readonly ToolCallResult[]> {
    this.calls.push(`runToolCalls(${message.toolCalls.map((call) => call.id).join(',')})`);
    this.ran.push(message);
    if (this.toolFailure) throw this.toolFailure;
    return message.toolCalls.map((call) => ({ call, ok: true, content: `result of ${call.id}` }));
  }

  async callPrimitive(name: string): Promise<ApplyResult> {
    this.calls.push(`callPrimitive(${name})`);
    return { ok: true, content: '', truncated: false, taint: [] };
  }
}

const answer = (text: string): AssistantMessage => ({ text, toolCalls: [], stopReason: 'end_turn' });
const withCalls = (...ids: string[]): AssistantMessage => ({
  text: '',
  toolCalls: ids.map((id) => ({ id, name: 'read_file', args: { path: id } })),
  stopReason: 'tool_use',
});
const budgetStop = () =>
  new EnvelopeError({ category: 'BUDGET_EXCEEDED', code: 'BUDGET_TOOL_CALLS', remediation: 'Raise the tool-call budget.' });

describe('defaultLoop', () => {
  it('returns the text of the first message when it has no tool calls, running no tools', async () => {
    const floor = new RecordingFloor([answer('All done.')]);
    expect(await defaultLoop.run(floor)).toEqual({ answer: 'All done.' });
    expect(floor.calls).toEqual(['callModel']);
  });

  it('runs each message with tool calls before calling the model again, then returns the answer', async () => {
    const first = withCalls('a', 'b');
    const second = withCalls('c');
    const floor = new RecordingFloor([first, second, answer('Fixed.')]);
    expect(await defaultLoop.run(floor)).toEqual({ answer: 'Fixed.' });
    expect(floor.calls).toEqual(['callModel', 'runToolCalls(a,b)', 'callModel', 'runToolCalls(c)', 'callModel']);
    expect(floor.ran[0]).toBe(first);
    expect(floor.ran[1]).toBe(second);
  });

  it('lets a stop error from callModel propagate unchanged and makes no further call', async () => {
    const stop = budgetStop();
    const floor = new RecordingFloor([withCalls('a'), stop, answer('never reached')]);
    await expect(defaultLoop.run(floor)).rejects.toBe(stop);
    expect(floor.calls).toEqual(['callModel', 'runToolCalls(a)', 'callModel']);
  });

  it('lets a stop error from runToolCalls propagate unchanged and does not call the model again', async () => {
    const stop = budgetStop();
    const floor = new RecordingFloor([withCalls('a'), answer('never reached')], stop);
    await expect(defaultLoop.run(floor)).rejects.toBe(stop);
    expect(floor.calls).toEqual(['callModel', 'runToolCalls(a)']);
  });
});
