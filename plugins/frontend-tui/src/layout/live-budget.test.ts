import { describe, expect, it } from 'vitest';
import { initialState, type Question, type TuiState } from '../state/tui-state.js';
import { hasOverlay, liveBudget } from './live-budget.js';

const question: Question = {
  sessionId: 's',
  callId: 'c',
  toolCallId: '3:c',
  tool: 'shell',
  tier: 'destructive',
  reason: 'rm is not on the allow-list',
  security: false,
  options: [{ optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' }],
  asked: true,
};

describe('liveBudget', () => {
  it('leaves the streaming answer what the terminal has left, so the live region stays shorter than it', () => {
    const streaming: TuiState = { ...initialState(), turn: 'running', stream: { text: 'x', thought: '' } };
    const tall = liveBudget(streaming, 50, 100);
    const short = liveBudget(streaming, 20, 100);
    expect(tall.streamLines).toBeGreaterThan(short.streamLines);
    // Editor, menu, hint, status and margins are counted: the total stays under the rows.
    expect(short.streamLines + short.editorLines + 7 + 1).toBeLessThan(20);
  });

  it('gives a dialog the room it needs and hands the keyboard to it', () => {
    const asking: TuiState = { ...initialState(), questions: [question], stream: { text: 'x', thought: '' } };
    expect(hasOverlay(asking)).toBe(true);
    expect(hasOverlay(initialState())).toBe(false);
    const subjects = Array.from({ length: 6 }, (_, i) => ({ class: 'github', destination: `host${i}.example` }));
    const tall: TuiState = { ...asking, questions: [{ ...question, security: true, subjects }] };
    expect(liveBudget(tall, 40, 80).streamLines).toBe(liveBudget(asking, 40, 80).streamLines - 6);
  });

  it('never gives the answer less than three lines', () => {
    expect(liveBudget({ ...initialState(), stream: { text: 'x', thought: '' } }, 10, 40).streamLines).toBe(3);
  });
});
