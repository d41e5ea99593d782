import { CONTEXT_CONTRIBUTOR_ID, type ContextContributor, type ContextPart, type PluginDefinition } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '../start-test-kernel.js';

/** How to run the context suite against one plugin. */
export interface ContextSuiteOptions extends Omit<TestKernelOptions, 'plugins'> {
  /** Plugins the contributor's plugin requires, loaded beside it. */
  readonly with?: readonly PluginDefinition[];
}

async function partsOf(t: TestKernel, contributor: ContextContributor, session: string): Promise<readonly ContextPart[]> {
  const tools = t.kernel.primitives.list().filter((p) => p.visibility === 'model').map((p) => ({ name: p.name, description: p.description, inputSchema: p.inputSchema }));
  return contributor.parts({ session, workspace: t.workspace, tools, signal: new AbortController().signal, logged: new Set() });
}

/**
 * What every plugin that contributes parts of the agent's brief (`context:<id>`) must do: register
 * exactly the contributors its manifest provides, well named and described; offer parts that are
 * `{ id, source, text }` strings with ids unique across its contributors; and offer the same ids on every
 * turn, since a part is logged once per session under its id.
 */
export function describeContextConformance(plugin: PluginDefinition, options: ContextSuiteOptions = {}): void {
  const { with: beside = [], ...kernelOptions } = options;
  const declared = plugin.manifest.provides.filter((p) => p.startsWith('context:')).map((p) => p.slice('context:'.length));
  const withKernel = async (body: (t: TestKernel, contributors: readonly ContextContributor[]) => Promise<void>): Promise<void> => {
    const t = await startTestKernel({ ...kernelOptions, plugins: [plugin, ...beside] });
    try {
      await body(t, t.kernel.contexts.list().filter((c) => c.owner === plugin.manifest.name).map((c) => c.item));
    } finally {
      await t.stop();
    }
  };

  describe(`${plugin.manifest.name} conforms as a context plugin`, () => {
    it('registers exactly the contributors it provides, well named and described', () =>
      withKernel(async (_t, contributors) => {
        expect(declared.length, 'a context plugin provides at least one context:<id>').toBeGreaterThan(0);
        expect(contributors.map((c) => c.id).sort()).toEqual([...declared].sort());
        for (const c of contributors) {
          expect(CONTEXT_CONTRIBUTOR_ID.test(c.id), c.id).toBe(true);
          expect(c.description.trim().length, c.id).toBeGreaterThan(10);
        }
      }));

    it('offers well-formed parts with unique ids, the same ids on every turn', () =>
      withKernel(async (t, contributors) => {
        const session = t.session();
        const first: ContextPart[] = [];
        const second: ContextPart[] = [];
        for (const c of contributors) {
          first.push(...(await partsOf(t, c, session)));
          second.push(...(await partsOf(t, c, session)));
        }
        for (const part of first) {
          expect(typeof part.id === 'string' && part.id.length > 0, JSON.stringify(part)).toBe(true);
          expect(typeof part.source === 'string' && part.source.length > 0, part.id).toBe(true);
          expect(typeof part.text === 'string' && part.text.trim().length > 0, part.id).toBe(true);
        }
        const ids = first.map((p) => p.id);
        expect(new Set(ids).size, 'part ids are unique').toBe(ids.length);
        expect(second.map((p) => p.id)).toEqual(ids);
      }));
  });
}
