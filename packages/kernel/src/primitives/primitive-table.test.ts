import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { PrimitiveTable } from './primitive-table.js';

const base = { description: 'd', input: z.object({}), tier: 'read' as const, visibility: 'model' as const, handler: () => ({ content: '' }) };

describe('PrimitiveTable', () => {
  it('checks model names and host names by their patterns', () => {
    const table = new PrimitiveTable(() => undefined);
    expect(() => table.register('p', { ...base, name: 'Read-File' })).toThrow(/lower_snake_case/);
    expect(() => table.register('p', { ...base, name: 'a'.repeat(65) })).toThrow();
    expect(() => table.register('p', { ...base, name: 'model_stream', visibility: 'host' })).toThrow(/area\.verb/);
    table.register('p', { ...base, name: 'model.stream', visibility: 'host' });
    table.register('p', { ...base, name: 'read_file' });
    expect(table.list().map((p) => p.name)).toEqual(['model.stream', 'read_file']);
  });

  it('refuses a taken name unless replacing on purpose, and reports the replacement', () => {
    const replaced: unknown[] = [];
    const table = new PrimitiveTable((change) => replaced.push(change));
    table.register('a', { ...base, name: 'x' });
    expect(() => table.register('b', { ...base, name: 'x' })).toThrow(/already registered by a/);
    table.register('b', { ...base, name: 'x' }, { replace: true });
    expect(table.get('x')?.owner).toBe('b');
    expect(replaced).toEqual([{ name: 'x', previousOwner: 'a', owner: 'b' }]);
  });

  it('refuses an unknown tier', () => {
    const table = new PrimitiveTable(() => undefined);
    expect(() => table.register('p', { ...base, name: 'x', tier: 'harmless' as never })).toThrow();
  });

  it('lists each primitive\'s kind, other by default, and refuses a kind ACP does not know', () => {
    const table = new PrimitiveTable(() => undefined);
    table.register('p', { ...base, name: 'read_file', kind: 'read' });
    table.register('p', { ...base, name: 'x' });
    expect(table.list().map((p) => [p.name, p.kind])).toEqual([['read_file', 'read'], ['x', 'other']]);
    expect(() => table.register('p', { ...base, name: 'y', kind: 'teleport' as never })).toThrow(/Fix the definition/);
    expect(() => table.register('p', { ...base, name: 'z', effect: 'shell' as never })).toThrow(/Fix the definition/);
  });

  it('lists the input as JSON Schema', () => {
    const table = new PrimitiveTable(() => undefined);
    table.register('p', { ...base, name: 'x', input: z.object({ path: z.string().describe('where') }) });
    expect(table.list()[0]!.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string', description: 'where' } } });
  });

  it('lists a field with a default as optional, since the model writes arguments before parsing', () => {
    const table = new PrimitiveTable(() => undefined);
    table.register('p', { ...base, name: 'x', input: z.object({ path: z.string(), depth: z.number().default(1) }) });
    expect(table.list()[0]!.inputSchema.required).toEqual(['path']);
  });

  it('asks a source on every lookup, so its entries come and go; registered names win and bad entries are left out', () => {
    const table = new PrimitiveTable(() => undefined);
    table.register('core', { ...base, name: 'read_file' });
    let entries = [{ ...base, name: 'slugify' }];
    table.addSource('caps', { name: 'caps', get: (name) => entries.find((e) => e.name === name), list: () => entries });
    expect(table.get('slugify')?.owner).toBe('caps');
    expect(table.list().map((p) => p.name)).toEqual(['read_file', 'slugify']);
    entries = [{ ...base, name: 'read_file', description: 'shadow' }, { ...base, name: 'Bad-Name' }, { ...base, name: 'word_count' }];
    expect(table.get('slugify')).toBeUndefined();
    expect(table.get('read_file')?.owner).toBe('core');
    expect(table.get('Bad-Name')).toBeUndefined();
    expect(table.list().map((p) => `${p.name}:${p.owner}`)).toEqual(['read_file:core', 'word_count:caps']);
    expect(() => table.addSource('other', { name: 'caps', get: () => undefined, list: () => [] })).toThrow(/already added/);
    const broken = () => {
      throw new Error('source failed');
    };
    table.addSource('other', { name: 'broken', get: broken, list: broken });
    expect(table.get('anything')).toBeUndefined();
    expect(table.list().map((p) => p.name)).toEqual(['read_file', 'word_count']);
  });
});
