import type { ModelProvider, ModelRequest, ModelStreamEvent, TurnFloor } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { echo, memoryKernel } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

const open: Kernel[] = [];
afterEach(() => {
  for (const k of open.splice(0)) k.close();
});

/** Calls echo `calls` times, then answers; a request without tools (a summary) gets `summary`, or fails. */
function provider(calls: number, summary: string | Error): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'test',
    requests,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      requests.push(request);
      if (request.tools.length === 0) {
        if (summary instanceof Error) throw summary;
        yield { type: 'text', text: summary };
      } else {
        const made = request.messages.filter((m) => m.role === 'assistant').length;
        if (made < calls) yield { type: 'tool_call', call: { id: `c${made}`, name: 'echo', args: { text: `result ${made} ${'x'.repeat(400)}` } } };
        else yield { type: 'text', text: 'done' };
      }
      yield { type: 'stop', reason: 'end_turn' };
    },
  };
}

/** Runs the calls, then summarises the first three steps before the last model call. */
function summarisingLoop(seen: { before?: number; after?: number; outcome?: unknown }) {
  return {
    id: 'summarising',
    description: 'summarises once',
    async run(floor: TurnFloor) {
      for (let round = 0; ; round++) {
        if (round === 5) {
          const view = floor.windowView();
          seen.before = view.entries.length;
          const steps = view.entries.filter((e) => e.kind === 'assistant').slice(0, 3);
          const last = view.entries.find((e) => e.kind === 'tool' && e.fromSeq > steps[2]!.fromSeq)!;
          seen.outcome = await floor.summarize({ fromSeq: steps[0]!.fromSeq, toSeq: last.toSeq, focus: 'results' });
          seen.after = floor.windowView().entries.length;
        }
        const message = await floor.callModel();
        if (message.toolCalls.length === 0) return { answer: message.text };
        await floor.runToolCalls(message);
      }
    },
  };
}

function start(): Kernel {
  const kernel = memoryKernel();
  kernel.primitives.register('t', echo);
  kernel.stages.add('l1', { name: 'mask', slot: 'log', filter: (d) => ({ ...d, payload: JSON.parse(JSON.stringify(d.payload).replaceAll('TOPSECRET', '[R]')) }) });
  open.push(kernel);
  return kernel;
}

describe('Floor.summarize', () => {
  it('logs the model\'s summary through the text layers, and the next call sees it in place of the span', async () => {
    const kernel = start();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const model = provider(5, 'echoed three results; the key is TOPSECRET');
    const seen: { before?: number; after?: number; outcome?: { ok: boolean; seq?: number } } = {};
    const result = await kernel.run({ session, prompt: 'go', provider: model, strategy: summarisingLoop(seen) });
    expect(result.answer).toBe('done');
    expect(seen.outcome).toMatchObject({ ok: true });
    expect(seen.after).toBe(seen.before! - 6 + 1);
    const added = kernel.log.read(session).find((e) => e.type === 'summary.added')!;
    expect(added.seq).toBe(seen.outcome!.seq);
    expect(added.payload).toMatchObject({ text: 'echoed three results; the key is [R]', model: 'test', focus: 'results' });
    const summaryRequest = model.requests.find((r) => r.tools.length === 0)!;
    expect(summaryRequest.messages[0]!.text).toContain('Keep above all: results');
    const next = model.requests[model.requests.indexOf(summaryRequest) + 1]!;
    expect(next.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    expect(next.messages[1]!.text).toContain('the key is [R]');
  });

  it('asks the summary model when the turn has one, and names it in the summary', async () => {
    const kernel = start();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const model = provider(5, 'never asked');
    const summarizer = { ...provider(0, 'the cheap model\'s summary'), id: 'cheap', model: 'mini' };
    const seen: { before?: number; after?: number; outcome?: { ok: boolean } } = {};
    const result = await kernel.run({ session, prompt: 'go', provider: model, summaryProvider: summarizer, strategy: summarisingLoop(seen) });
    expect(result.answer).toBe('done');
    expect(model.requests.some((r) => r.tools.length === 0)).toBe(false);
    expect(summarizer.requests).toHaveLength(1);
    expect(kernel.log.read(session).find((e) => e.type === 'summary.added')?.payload).toMatchObject({ text: "the cheap model's summary", model: 'cheap/mini' });
  });

  it('a failing summary is logged as summary.failed and the turn goes on with the window as it was', async () => {
    const kernel = start();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const seen: { before?: number; after?: number; outcome?: { ok: boolean } } = {};
    const result = await kernel.run({ session, prompt: 'go', provider: provider(5, new Error('model down')), strategy: summarisingLoop(seen) });
    expect(result.answer).toBe('done');
    expect(seen.outcome).toMatchObject({ ok: false, envelope: { status: 'error' } });
    expect(seen.after).toBe(seen.before);
    expect(kernel.log.read(session).filter((e) => e.type === 'summary.failed')).toHaveLength(1);
    expect(kernel.log.read(session).some((e) => e.type === 'summary.added')).toBe(false);
  });

  it('refuses a span that separates a call from its result', async () => {
    const kernel = start();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const loop = {
      id: 'bad',
      description: 'splits a step',
      async run(floor: TurnFloor) {
        await floor.runToolCalls(await floor.callModel());
        const call = floor.windowView().entries.find((e) => e.kind === 'assistant')!;
        await floor.summarize({ fromSeq: call.fromSeq, toSeq: call.toSeq });
        return { answer: 'unreachable' };
      },
    };
    const result = await kernel.run({ session, prompt: 'go', provider: provider(1, 's'), strategy: loop });
    expect(result.envelope).toMatchObject({ code: 'SUMMARY_SPAN_INVALID' });
  });
});
