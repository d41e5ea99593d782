import { Kernel } from '@nodwyn/kernel';
import { API_VERSION, type Frontend } from '@nodwyn/plugin-api';
import { PluginHost } from '@nodwyn/plugin-host';
import type { Config } from './config.js';
import type { Runtime } from './runtime.js';

/** A front end loaded on its own, and how to let go of it. */
export interface LoadedFrontend {
  readonly frontend: Frontend;
  close(): Promise<void>;
}

/**
 * The front end `id`, loaded with its own plugin alone, when the distribution says which package provides
 * it (`frontendPackages`) and the person did not disable it: a person sees the front end while the
 * workspace's other plugins boot behind it (the agent boots them when the first session needs them).
 * The plugin gets the person's own config and a kernel over the shared log that nothing else uses. Any
 * other case is `undefined`: the caller boots the workspace and asks its host, which also says why a front
 * end is missing.
 */
export async function loadFrontendAlone(runtime: Runtime, id: string, workspace: string): Promise<LoadedFrontend | undefined> {
  const { distribution, config } = runtime;
  const pkg = distribution.frontendPackages?.[id];
  const entry = pkg === undefined ? undefined : distribution.plugins.find((p) => p.package === pkg);
  if (!entry || disabled(config).includes(entry.package)) return undefined;
  const kernel = Kernel.over(runtime.log, { workspace });
  const host = new PluginHost({ kernel: kernel.port(), apiVersion: API_VERSION, settings: config, workspace, dataDir: runtime.dataDir });
  try {
    await host.load({ name: `${distribution.name} (front end)`, plugins: [entry] });
    await host.start();
  } catch {
    kernel.close();
    return undefined;
  }
  const frontend = host.frontend(id);
  const close = async (): Promise<void> => {
    await host.stopAll();
    kernel.close();
  };
  if (frontend) return { frontend, close };
  await close();
  return undefined;
}

function disabled(config: Config): readonly string[] {
  return config.distribution?.disabled ?? [];
}
