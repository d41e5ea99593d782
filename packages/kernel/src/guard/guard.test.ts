import { envelope, z } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { echo, memoryKernel } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

function outcomes(k: Kernel, session: string) {
  return k.log.read(session).filter((e) => e.type.startsWith('tool.'));
}

describe('Guard.apply', () => {
  it('denies an unknown tool with NOT_FOUND listing the known ones, and logs one tool.denied', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const result = await kernel.apply({ session: 's', name: 'ecko', args: {}, origin: 'model' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.envelope).toMatchObject({ category: 'NOT_FOUND', code: 'TOOL_UNKNOWN', expected: 'echo' });
    expect(outcomes(kernel, 's').map((e) => [e.type, e.payload.stage])).toEqual([['tool.denied', 'resolve']]);
  });

  it('hides host primitives from the model', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', { ...echo, name: 'model.echo', visibility: 'host' });
    expect((await kernel.apply({ session: 's', name: 'model.echo', args: { text: 'x' }, origin: 'model' })).ok).toBe(false);
    expect((await kernel.apply({ session: 's', name: 'model.echo', args: { text: 'x' }, origin: 'host' })).ok).toBe(true);
  });

  it('answers wrong argument types with VALIDATION_FAILED and a JSON path', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', {
      name: 'edit',
      description: 'edits',
      tier: 'mutate',
      visibility: 'model',
      input: z.object({ edits: z.array(z.object({ old: z.string() })) }),
      handler: () => ({ content: 'ok' }),
    });
    const result = await kernel.apply({ session: 's', name: 'edit', args: { edits: [{ old: 'a' }, { old: 7 }] }, origin: 'model' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.envelope).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.edits[1].old', expected: 'string', received_value: '7' });
  });

  it('requires a confirmation for destructive calls and logs the decision', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', { ...echo, name: 'wipe', tier: 'destructive' });
    const denied = await kernel.apply({ session: 's', name: 'wipe', args: { text: 'x' }, origin: 'model' });
    expect(denied.ok ? undefined : denied.envelope.category).toBe('CONFIRMATION_REQUIRED');
    const granted = await kernel.apply({ session: 's', name: 'wipe', args: { text: 'x' }, origin: 'model', confirmer: { confirm: async () => true } });
    expect(granted.ok).toBe(true);
    const declined = await kernel.apply({ session: 's', name: 'wipe', args: { text: 'x' }, origin: 'model', confirmer: { confirm: async () => false } });
    expect(declined.ok ? undefined : declined.envelope.code).toBe('CONFIRMATION_DECLINED');
    const decisions = kernel.log.read('s').filter((e) => e.type === 'confirmation.decided').map((e) => e.payload.granted);
    expect(decisions).toEqual([false, true, false]);
  });

  it('lets classify lower the tier but never raise it', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', { ...echo, name: 'sh', tier: 'destructive', classify: (a: { text: string }) => (a.text === 'ls' ? 'read' : 'irreversible') } as never);
    expect((await kernel.apply({ session: 's', name: 'sh', args: { text: 'ls' }, origin: 'model' })).ok).toBe(true);
    const other = await kernel.apply({ session: 's', name: 'sh', args: { text: 'rm' }, origin: 'model' });
    expect(other.ok ? undefined : other.envelope.remediation).toContain('sh is destructive');
  });

  it('stops at the first deny and treats a throwing stage as a deny', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const seen: string[] = [];
    kernel.stages.add('p', { name: 'boom', slot: 'policy', check: () => { seen.push('boom'); throw new Error('stage bug'); } });
    kernel.stages.add('p', { name: 'later', slot: 'egress', check: () => { seen.push('later'); return { kind: 'allow' }; } });
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'x' }, origin: 'model' });
    expect(result.ok ? undefined : [result.envelope.code, result.envelope.plugin, result.stage]).toEqual(['GUARD_STAGE_FAILED', 'p', 'policy:boom']);
    expect(seen).toEqual(['boom']);
  });

  it('keeps the envelope a stage throws even from another copy of plugin-api', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    // What a third-party plugin's own bundled EnvelopeError looks like: a different class, the same shape.
    class ForeignEnvelopeError extends Error {
      readonly envelope = envelope({ category: 'PERMISSION_DENIED', code: 'THEIR_CODE', remediation: 'theirs' });
    }
    kernel.stages.add('third', { name: 'strict', slot: 'policy', check: () => { throw new ForeignEnvelopeError('no'); } });
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'x' }, origin: 'model' });
    expect(result.ok ? undefined : [result.envelope.code, result.envelope.plugin]).toEqual(['THEIR_CODE', 'third']);
  });

  it('passes a stage deny through with the plugin named', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    kernel.stages.add('sec', { name: 'no', slot: 'egress', check: () => ({ kind: 'deny', envelope: envelope({ category: 'PERMISSION_DENIED', code: 'NOPE', remediation: 'no' }) }) });
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'x' }, origin: 'model' });
    expect(result.ok ? undefined : [result.envelope.code, result.envelope.plugin]).toEqual(['NOPE', 'sec']);
  });

  it('filters results through ingress stages and writes through log stages', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    kernel.stages.add('l1', { name: 'mask', slot: 'ingress', filter: (_c, r) => ({ ...r, content: r.content.replace('secret', '[REDACTED]') }) });
    kernel.stages.add('l1', { name: 'log', slot: 'log', filter: (d) => ({ ...d, payload: JSON.parse(JSON.stringify(d.payload).replaceAll('hunter2', '[REDACTED]')) }) });
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'secret hunter2' }, origin: 'model' });
    expect(result.ok && result.content).toBe('[REDACTED] hunter2');
    expect(JSON.stringify(kernel.log.read('s'))).not.toContain('hunter2');
  });

  it('fails closed when an ingress stage throws: the raw result is not returned or logged', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    kernel.stages.add('l1', { name: 'broken', slot: 'ingress', filter: () => { throw new Error('x'); } });
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'raw-output' }, origin: 'host' });
    expect(result.ok).toBe(false);
    expect(kernel.log.read('s').filter((e) => e.type === 'tool.completed')).toHaveLength(0);
  });

  it('never throws when the log slot refuses the outcome, and returns no unfiltered result', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    kernel.stages.add('l1', { name: 'broken', slot: 'log', filter: () => { throw new Error('layer down'); } });
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'raw' }, origin: 'model' });
    expect(result.ok ? undefined : [result.envelope.code, result.stage]).toEqual(['LOG_FILTER_FAILED', 'log']);
    expect(JSON.stringify(result)).not.toContain('raw');
  });

  it('shows egress stages the targets a primitive describes, and denies with the stage\'s own envelope when nobody can confirm', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('net', {
      ...echo,
      name: 'fetch_url',
      egress: true,
      egressTargets: (a: { text: string }) => [{ method: 'GET', url: a.text, positions: [] }],
    } as never);
    const seen: unknown[] = [];
    const unbound = envelope({ category: 'PERMISSION_DENIED', code: 'GUARD_EGRESS_UNBOUND', remediation: 'bind it' });
    kernel.stages.add('egress', { name: 'bindings', slot: 'egress', check: (call) => { seen.push(call.targets); return { kind: 'confirm', reason: 'send to example.org', otherwise: unbound }; } });
    const alone = await kernel.apply({ session: 's', name: 'fetch_url', args: { text: 'https://example.org/x' }, origin: 'model' });
    expect(alone.ok ? undefined : [alone.envelope.code, alone.envelope.plugin]).toEqual(['GUARD_EGRESS_UNBOUND', 'egress']);
    const asked = await kernel.apply({ session: 's', name: 'fetch_url', args: { text: 'https://example.org/x' }, origin: 'model', confirmer: { confirm: async () => true } });
    expect(asked.ok).toBe(true);
    expect(seen[0]).toEqual([{ method: 'GET', url: 'https://example.org/x', positions: [] }]);
  });

  it('never puts a security question to a blanket grant (--yes): it is handled as if nobody were there', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', { ...echo, name: 'fetch_url', egress: true, egressTargets: (a: { text: string }) => [{ method: 'GET', url: a.text, positions: [] }] } as never);
    const unbound = envelope({ category: 'PERMISSION_DENIED', code: 'GUARD_EGRESS_UNBOUND', remediation: 'bind it' });
    kernel.stages.add('egress', { name: 'bindings', slot: 'egress', check: (call) => (call.name === 'fetch_url' ? { kind: 'confirm', reason: 'a secret would go to example.org', otherwise: unbound, security: true } : { kind: 'allow' }) });
    const asked: unknown[] = [];
    const yes = { blanket: true, confirm: async (request: unknown) => (asked.push(request), true) };
    const blanket = await kernel.apply({ session: 's', name: 'fetch_url', args: { text: 'https://example.org/x' }, origin: 'model', confirmer: yes });
    expect(blanket.ok ? undefined : blanket.envelope.code).toBe('GUARD_EGRESS_UNBOUND');
    expect(asked).toEqual([]);
    const person = { confirm: async (request: unknown) => (asked.push(request), true) };
    expect((await kernel.apply({ session: 's', name: 'fetch_url', args: { text: 'https://example.org/x' }, origin: 'model', confirmer: person })).ok).toBe(true);
    expect(asked).toMatchObject([{ name: 'fetch_url', security: true }]);
    // Other confirmations still take --yes.
    kernel.primitives.register('t', { ...echo, name: 'wipe', tier: 'destructive' });
    expect((await kernel.apply({ session: 's', name: 'wipe', args: { text: 'x' }, origin: 'model', confirmer: yes })).ok).toBe(true);
  });

  it('passes taint to the handler and on to nested calls as a sorted union', async () => {
    kernel = memoryKernel();
    const inner: (readonly string[])[] = [];
    kernel.primitives.register('t', { ...echo, name: 'leaf', handler: (_a, ctx) => { inner.push(ctx.taint); return { content: 'ok' }; } });
    kernel.primitives.register('t', { ...echo, name: 'outer', handler: async (_a, ctx) => { await ctx.apply('leaf', { text: 'x' }, { taint: ['aws'] }); return { content: 'done' }; } });
    await kernel.apply({ session: 's', name: 'outer', args: { text: 'x' }, origin: 'host', taint: ['github'] });
    expect(inner).toEqual([['aws', 'github']]);
  });

  it('refuses stages at the execute slot', () => {
    kernel = memoryKernel();
    expect(() => kernel.stages.add('p', { name: 'x', slot: 'execute' as never, check: () => ({ kind: 'allow' }) })).toThrow(/execute slot/);
  });

  it('times out a handler that ignores its signal', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', { ...echo, name: 'hang', timeoutMs: 30, handler: () => new Promise(() => undefined) });
    const result = await kernel.apply({ session: 's', name: 'hang', args: { text: 'x' }, origin: 'model' });
    expect(result.ok ? undefined : [result.envelope.category, result.envelope.code]).toEqual(['TIMEOUT', 'TOOL_TIMEOUT']);
  });

  it('cancels a running handler through the abort signal', async () => {
    kernel = memoryKernel();
    let sawAbort = false;
    kernel.primitives.register('t', {
      ...echo,
      name: 'slow',
      handler: (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => { sawAbort = true; resolve({ content: 'late' }); })),
    });
    const controller = new AbortController();
    const pending = kernel.apply({ session: 's', name: 'slow', args: { text: 'x' }, origin: 'model', signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    expect(result.ok ? undefined : result.envelope.category).toBe('CANCELLED');
    expect(sawAbort).toBe(true);
  });

  it('cuts output at the cap and says so', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const result = await kernel.apply({ session: 's', name: 'echo', args: { text: 'x'.repeat(5000) }, origin: 'model' });
    expect(result.ok && result.truncated).toBe(true);
    expect(result.ok && result.content).toMatch(/output cut by nodwyn: 3976 of 5000 bytes omitted/);
  });

  it('turns a throwing handler into an INTERNAL envelope without a stack', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('plug', { ...echo, name: 'bad', handler: () => { throw new TypeError('oops'); } });
    const result = await kernel.apply({ session: 's', name: 'bad', args: { text: 'x' }, origin: 'model' });
    expect(result.ok ? undefined : [result.envelope.category, result.envelope.plugin]).toEqual(['INTERNAL', 'plug']);
    expect(JSON.stringify(result)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('logs exactly one outcome per call, with host calls marked', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    kernel.primitives.register('t', { ...echo, name: 'twice', handler: async (a, ctx) => {
      const inner = await ctx.apply('echo', { text: a.text });
      return { content: inner.ok ? inner.content.repeat(2) : 'failed' };
    } });
    const result = await kernel.apply({ session: 's', name: 'twice', args: { text: 'ab' }, origin: 'model', callId: 'm1' });
    expect(result.ok && result.content).toBe('abab');
    const events = outcomes(kernel, 's');
    expect(events.map((e) => [e.payload.name, e.payload.origin ?? 'model'])).toEqual([['echo', 'host'], ['twice', 'model']]);
  });
});
