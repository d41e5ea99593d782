import { describe, expect, it } from 'vitest';
import { planLoadOrder, type PlanNode } from './load-order.js';

const node = (name: string, requires: string[] = [], provides: string[] = []): PlanNode => ({ name, requires, provides });

describe('planLoadOrder', () => {
  it('keeps input order when nothing is required', () => {
    expect(planLoadOrder([node('b'), node('a'), node('c')], new Set()).order).toEqual(['b', 'a', 'c']);
  });

  it('names a cycle reached through a node outside it, and orders that node after the cycle', () => {
    const plan = planLoadOrder([node('tail', ['plugin:a']), node('a', ['plugin:b']), node('b', ['plugin:a'])], new Set());
    expect(plan.cycles.get('a')).toEqual(['a', 'b', 'a']);
    expect(plan.cycles.get('b')).toEqual(['a', 'b', 'a']);
    expect(plan.cycles.has('tail')).toBe(false);
    expect(plan.order).toEqual(['a', 'b', 'tail']);
  });

  it('lists every provider of a requirement and waits for all of them', () => {
    const plan = planLoadOrder([node('user', ['primitive:x']), node('one', [], ['primitive:x']), node('two', [], ['primitive:x'])], new Set());
    expect(plan.requirements.get('user')).toEqual([{ requirement: 'primitive:x', providers: ['one', 'two'] }]);
    expect(plan.order).toEqual(['one', 'two', 'user']);
  });

  it('treats what is already available as met, and reports the rest as missing', () => {
    const plan = planLoadOrder([node('user', ['primitive:builtin', 'loop:none'])], new Set(['primitive:builtin']));
    expect(plan.missing.get('user')).toEqual(['loop:none']);
    expect(plan.requirements.get('user')).toEqual([]);
  });

  it('places a plugin after the provider of what it uses when present, without requiring it', () => {
    const user: PlanNode = { name: 'user', requires: [], provides: [], after: ['service:taint'] };
    const present = planLoadOrder([user, node('l2', [], ['service:taint'])], new Set());
    expect(present.order).toEqual(['l2', 'user']);
    expect(present.missing.size).toBe(0);
    expect(present.requirements.get('user')).toEqual([]);
    const absent = planLoadOrder([user, node('other')], new Set());
    expect(absent.order).toEqual(['user', 'other']);
    expect(absent.missing.size).toBe(0);
  });

  it('lets an optional edge go rather than report a cycle through it', () => {
    const user: PlanNode = { name: 'user', requires: [], provides: ['service:a'], after: ['service:b'] };
    const plan = planLoadOrder([user, node('provider', ['service:a'], ['service:b'])], new Set());
    expect(plan.cycles.size).toBe(0);
    expect(plan.order).toEqual(['user', 'provider']);
  });
});
