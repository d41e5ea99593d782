import { z, type ModelMessage, type ModelProvider, type PluginDefinition, type ModelRequest, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { loopDefaultPlugin } from '@nodwyn/plugin-loop-default';
import { providerScriptedPlugin } from '@nodwyn/plugin-provider-scripted';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgePlugin } from '../src/index.js';

/** What the spy judge answers to one call: text, a thrown failure, or never (ignoring the abort signal). */
export type SpyAnswer = string | Error | 'hang';

/** A judge provider for tests: answers from a list in order and keeps every message it was sent. */
export interface JudgeSpy {
  readonly received: string[];
  readonly answers: SpyAnswer[];
}

/** Registers provider `judge-spy`, which plays `spy.answers` and records what reached it. */
export function judgeSpyPlugin(spy: JudgeSpy) {
  return testPlugin('judge-spy', ['provider:judge-spy'], (ctx) => {
    ctx.providers.register({
      id: 'judge-spy',
      description: 'test judge',
      create: (): ModelProvider => ({
        id: 'judge-spy',
        async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
          spy.received.push(request.messages.map((m: ModelMessage) => m.text).join('\n'));
          const answer = spy.answers.shift();
          if (answer === undefined) throw new Error('the judge was asked more often than the test expects');
          if (answer instanceof Error) throw answer;
          if (answer === 'hang') await new Promise<never>(() => undefined);
          yield { type: 'text', text: String(answer) };
          yield { type: 'stop', reason: 'end_turn' };
        },
      }),
    });
  });
}

/** A script for the `scripted` provider that gives the same answer to every judge call (each is a fresh prompt). */
export function judgeScript(answer: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodwyn-judge-')), 'judge.json');
  writeFileSync(file, JSON.stringify({ replies: [{ text: answer }] }));
  return file;
}

/** A model-visible egress tool that sends `note` in a JSON body to `url` (the handler sends nothing). */
export function postNotePlugin(sent: string[]) {
  return testPlugin('post-note', ['primitive:post_note'], (ctx) => {
    ctx.primitives.register({
      name: 'post_note',
      description: 'Posts a note to a URL.',
      input: z.object({ url: z.string(), note: z.string(), method: z.string().default('POST') }).strict(),
      tier: 'mutate',
      visibility: 'model',
      egress: true,
      egressTargets: (args) => [{ method: args.method, url: args.url, positions: args.method === 'GET' ? [] : [{ kind: 'body', name: '$.note', value: args.note }] }],
      handler: (args) => {
        sent.push(args.note);
        return { content: 'posted' };
      },
    });
  });
}

/** The real kernel with the judge, its text layer, the default loop and the scripted provider. */
export function judgeKernel(judge: Record<string, unknown>, ...plugins: PluginDefinition[]): Promise<TestKernel> {
  return startTestKernel({ settings: { judge }, plugins: [redactL1Plugin, providerScriptedPlugin, loopDefaultPlugin, judgePlugin, ...plugins] });
}
