import type { GeneratorCallback, Tree } from '@nx/devkit';

/** The options of `nx g @nodwyn/tools:plugin` (schema.json). */
interface PluginGeneratorOptions {
  readonly name: string;
  readonly kind: string;
  readonly directory?: string;
}

/** Writes a new plugin's files (from @nodwyn/plugin-templates, loaded by `load`) into `tree`. */
declare function pluginGenerator(tree: Tree, options: PluginGeneratorOptions, load?: () => Promise<typeof import('@nodwyn/plugin-templates')>): Promise<GeneratorCallback>;
export = pluginGenerator;
