import type { Frontend, PluginDefinition } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '../start-test-kernel.js';
import { frontendLaunch } from './frontend-launch.js';

/** How to run the front-end suite against one plugin. */
export interface FrontendSuiteOptions extends Omit<TestKernelOptions, 'plugins'> {
  /** Plugins the front-end plugin requires, loaded beside it. */
  readonly with?: readonly PluginDefinition[];
  /** The arguments each front end is started with; none by default. */
  readonly args?: readonly string[];
}

/**
 * What every front-end plugin must do: register exactly the front ends its manifest provides, each
 * described; started with a client and then aborted, end with an integer exit code and leave the client
 * open (the app owns the connection); and started already aborted, end without sending a prompt.
 */
export function describeFrontendConformance(plugin: PluginDefinition, options: FrontendSuiteOptions = {}): void {
  const { with: beside = [], args = [], ...kernelOptions } = options;
  const declared = plugin.manifest.provides.filter((p) => p.startsWith('frontend:')).map((p) => p.slice('frontend:'.length));
  const withKernel = async (body: (t: TestKernel, frontends: readonly Frontend[]) => Promise<void>): Promise<void> => {
    const t = await startTestKernel({ ...kernelOptions, plugins: [plugin, ...beside] });
    try {
      const mine = t.host.frontends().filter((f) => f.owner === plugin.manifest.name);
      await body(t, mine.map((f) => t.host.frontend(f.id)).filter((f): f is Frontend => f !== undefined));
    } finally {
      await t.stop();
    }
  };

  describe(`${plugin.manifest.name} conforms as a front-end plugin`, () => {
    it('registers exactly the front ends it provides, each with a description', () =>
      withKernel(async (t) => {
        expect(declared.length, 'a front-end plugin provides at least one frontend:<id>').toBeGreaterThan(0);
        const mine = t.host.frontends().filter((f) => f.owner === plugin.manifest.name);
        expect(mine.map((f) => f.id).sort()).toEqual([...declared].sort());
        for (const f of mine) expect(f.description.trim().length, f.id).toBeGreaterThan(10);
      }));

    it('ends with an integer exit code when its launch is aborted, and leaves the client open', () =>
      withKernel(async (t, frontends) => {
        for (const frontend of frontends) {
          const { launch, client, abort } = frontendLaunch({ workspace: t.workspace, args });
          const running = frontend.start(launch);
          await new Promise((resolve) => setTimeout(resolve, 20));
          abort();
          const code = await running;
          expect(Number.isInteger(code), `${frontend.id} returned ${String(code)}`).toBe(true);
          expect(client.closed, `${frontend.id} closed the client it was given`).toBe(false);
        }
      }));

    it('sends no prompt when started with a launch already aborted', () =>
      withKernel(async (t, frontends) => {
        for (const frontend of frontends) {
          const { launch, client, abort } = frontendLaunch({ workspace: t.workspace, args });
          abort();
          const code = await frontend.start(launch);
          expect(Number.isInteger(code), `${frontend.id} returned ${String(code)}`).toBe(true);
          expect(client.calls.map((c) => c.method)).not.toContain('prompt');
        }
      }));
  });
}
