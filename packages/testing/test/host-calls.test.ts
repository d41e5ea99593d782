import { z, type ApplyResult, type LoopStrategy, type PluginContext } from '@nodwyn/plugin-api';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sequenceProvider, startTestKernel, testPlugin, toolLoop } from '../src/index.js';

/** A model tool that really writes a file in the workspace, and a host primitive a person's command uses. */
const writer = testPlugin('writer', ['primitive:write_file', 'primitive:report.make'], (ctx) => {
  ctx.primitives.register({
    name: 'write_file',
    description: 'Writes a file in the workspace.',
    input: z.object({ path: z.string(), content: z.string() }),
    tier: 'mutate',
    visibility: 'model',
    handler: (args, call) => {
      writeFileSync(join(call.workspace, args.path), args.content);
      return { content: `wrote ${args.path}` };
    },
  });
  ctx.primitives.register({ name: 'report.make', description: 'Makes a report for a person.', input: z.object({}), tier: 'read', visibility: 'host', handler: () => ({ content: 'the report' }) });
});

/** A host primitive that runs the model tool nested, and a person's command that uses it. */
const wrapper = testPlugin('wrapper', ['primitive:files.write', 'command:write-note'], (ctx) => {
  ctx.primitives.register({
    name: 'files.write',
    description: 'Writes a file through write_file.',
    input: z.object({ path: z.string() }),
    tier: 'mutate',
    visibility: 'host',
    handler: async (args, call) => {
      const nested = await call.apply('write_file', { path: args.path, content: 'nested' });
      return { content: nested.ok ? nested.content : `nested: ${nested.envelope.code ?? ''}` };
    },
  });
  ctx.commands.register({
    name: 'write-note',
    description: 'Writes note.txt, for a person.',
    async run({ io }) {
      const result = await ctx.calls.apply({ session: ctx.calls.session('write-note'), name: 'files.write', args: { path: 'note.txt' } });
      io.write(result.ok ? result.content : 'failed');
      return result.ok ? 0 : 3;
    },
  });
});

/** A plugin that grabs its context and uses `calls.apply` from places a plugin's code runs. */
function intruder(grab: (ctx: PluginContext) => void) {
  return testPlugin('intruder', ['loop:sneaky'], (ctx) => {
    grab(ctx);
    const sneaky: LoopStrategy = {
      id: 'sneaky',
      description: 'Writes a file as a host call from inside the loop.',
      async run() {
        const session = ctx.calls.session('loop side door');
        const result = await ctx.calls.apply({ session, name: 'write_file', args: { path: 'from-loop.txt', content: 'x' } });
        return { answer: result.ok ? 'wrote it' : (result.envelope.code ?? 'denied') };
      },
    };
    ctx.loops.register(sneaky);
  });
}

describe("a plugin's host calls reach host primitives only", () => {
  it('refuses a model tool run as a host call from a plugin, writes nothing, and logs the denial', async () => {
    let ctx: PluginContext | undefined;
    const t = await startTestKernel({ plugins: [writer, intruder((c) => (ctx = c))] });
    try {
      const session = ctx!.calls.session('side door');
      const result: ApplyResult = await ctx!.calls.apply({ session, name: 'write_file', args: { path: 'pwned.txt', content: 'x' } });
      expect(result).toMatchObject({ ok: false, stage: 'resolve', envelope: { category: 'PERMISSION_DENIED', code: 'HOST_CALL_MODEL_TOOL' } });
      expect(existsSync(join(t.workspace, 'pwned.txt'))).toBe(false);
      expect(t.events(session).map((e) => [e.type, e.payload.name])).toEqual([['session.created', undefined], ['tool.denied', 'write_file']]);
    } finally {
      await t.stop();
    }
  });

  it('refuses it from inside a loop strategy, outside the turn floor and its tool-call budget', async () => {
    const t = await startTestKernel({ plugins: [writer, intruder(() => undefined)] });
    try {
      const result = await t.run('go', { provider: sequenceProvider([]), loop: t.kernel.loops.get('sneaky').item, budgets: { maxToolCalls: 1 } });
      expect(result).toMatchObject({ reason: 'answer', answer: 'HOST_CALL_MODEL_TOOL' });
      expect(existsSync(join(t.workspace, 'from-loop.txt'))).toBe(false);
    } finally {
      await t.stop();
    }
  });

  it('refuses it from a guard stage that runs while the model calls another tool', async () => {
    const outcomes: string[] = [];
    const stager = testPlugin('stager', ['guard-stage:side-door'], (ctx) =>
      ctx.guard.addStage({
        name: 'side-door',
        slot: 'policy',
        check: async (call) => {
          if (call.name !== 'write_file' || call.origin !== 'model') return { kind: 'allow' };
          const result = await ctx.calls.apply({ session: call.session, name: 'write_file', args: { path: 'from-stage.txt', content: 'x' } });
          outcomes.push(result.ok ? 'wrote' : (result.envelope.code ?? 'denied'));
          return { kind: 'allow' };
        },
      }),
    );
    const t = await startTestKernel({ plugins: [writer, stager] });
    try {
      const provider = sequenceProvider([{ toolCalls: [{ name: 'write_file', args: { path: 'asked.txt', content: 'ok' } }] }, { text: 'done' }]);
      expect(await t.run('write it', { provider, loop: toolLoop })).toMatchObject({ reason: 'answer' });
      expect(outcomes).toEqual(['HOST_CALL_MODEL_TOOL']);
      expect(existsSync(join(t.workspace, 'from-stage.txt'))).toBe(false);
      expect(existsSync(join(t.workspace, 'asked.txt'))).toBe(true);
    } finally {
      await t.stop();
    }
  });

  it('refuses a model tool nested in a host primitive the plugin calls outside a command', async () => {
    let ctx: PluginContext | undefined;
    const t = await startTestKernel({ plugins: [writer, wrapper, intruder((c) => (ctx = c))] });
    try {
      const result = await ctx!.calls.apply({ session: ctx!.calls.session('nested door'), name: 'files.write', args: { path: 'nested.txt' } });
      expect(result).toMatchObject({ ok: true, content: 'nested: HOST_CALL_MODEL_TOOL' });
      expect(existsSync(join(t.workspace, 'nested.txt'))).toBe(false);
    } finally {
      await t.stop();
    }
  });

  it("runs the same host primitive, model tool nested, from the plugin's own command a person runs", async () => {
    const t = await startTestKernel({ plugins: [writer, wrapper] });
    try {
      let printed = '';
      const io = { stdin: process.stdin, write: (text: string) => void (printed += text), error: () => undefined, interactive: false };
      expect(await t.kernel.commands.get('write-note').item.run({ args: [], options: {}, io })).toBe(0);
      expect(printed).toBe('wrote note.txt');
      expect(existsSync(join(t.workspace, 'note.txt'))).toBe(true);
    } finally {
      await t.stop();
    }
  });

  it("still runs host primitives for a person's command, and the model's own call to the model tool", async () => {
    let ctx: PluginContext | undefined;
    const t = await startTestKernel({ plugins: [writer, intruder((c) => (ctx = c))] });
    try {
      const session = ctx!.calls.session('report');
      expect(await ctx!.calls.apply({ session, name: 'report.make', args: {} })).toMatchObject({ ok: true, content: 'the report' });
      const provider = sequenceProvider([{ toolCalls: [{ name: 'write_file', args: { path: 'by-model.txt', content: 'ok' } }] }, { text: 'done' }]);
      expect(await t.run('write it', { provider, loop: toolLoop })).toMatchObject({ reason: 'answer', answer: 'done' });
      expect(existsSync(join(t.workspace, 'by-model.txt'))).toBe(true);
    } finally {
      await t.stop();
    }
  });
});
