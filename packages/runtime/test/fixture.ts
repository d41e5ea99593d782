import { API_VERSION, definePlugin, type PluginDefinition } from '@nodwyn/plugin-api';
import type { DistributionEntry } from '@nodwyn/plugin-host';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRepoFolder, trustRecordFor, TrustStore, trustStorePath } from '../src/index.js';

/** A temp NODWYN_HOME and a parent for workspaces, removed by `remove()`. */
export class RuntimeFixture {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-runtime-')));
  readonly home = join(this.root, 'home');
  readonly env: NodeJS.ProcessEnv = { NODWYN_HOME: this.home };
  /** What the plugins of `plugin()` saw, one line per hook call. */
  readonly seen: string[] = [];

  /** A workspace folder with the given `.nodwyn/` files. */
  workspace(name: string, files: Record<string, string> = {}): string {
    const dir = join(this.root, name);
    mkdirSync(dir, { recursive: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, '.nodwyn', path, '..'), { recursive: true });
      writeFileSync(join(dir, '.nodwyn', path), text);
    }
    return dir;
  }

  /** Writes the user's config.toml. */
  userConfig(text: string): void {
    mkdirSync(this.home, { recursive: true });
    writeFileSync(join(this.home, 'config.toml'), text);
  }

  /** Trusts the workspace's `.nodwyn/` as it is now, as `nodwyn trust --yes` would. */
  trust(workspace: string): void {
    const folder = readRepoFolder(workspace, [this.home]);
    TrustStore.open(trustStorePath(this.env)).set(workspace, trustRecordFor(folder));
  }

  /** A plugin that records its config and workspace on start and its stop, in `seen`. */
  plugin(name: string, manifest: { userOnlyConfig?: boolean } = {}): PluginDefinition {
    return definePlugin({
      manifest: { name, version: '1.0.0', apiVersion: `^${API_VERSION}`, ...manifest },
      register: () => undefined,
      start: (ctx) => void this.seen.push(`start ${name} ${ctx.workspace} ${JSON.stringify(ctx.config)}`),
      stop: (ctx) => void this.seen.push(`stop ${name} ${ctx.workspace}`),
    });
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A required distribution entry for `plugin`. */
export function entry(plugin: PluginDefinition, load: () => PluginDefinition | Promise<PluginDefinition> = () => plugin): DistributionEntry {
  return { package: plugin.manifest.name, range: '^1.0.0', load };
}
