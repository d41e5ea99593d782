import type { PluginNames } from '../names.js';

/** What one kind of plugin contributes to the generated files. */
export interface KindTemplate {
  /** One sentence for the manifest and the README: what the generated plugin does. */
  readonly summary: (names: PluginNames) => string;
  /** `src/index.ts`: the plugin. */
  readonly index: (names: PluginNames) => string;
  /** `src/index.test.ts`: the kind's conformance suite, and one test of what the plugin does. */
  readonly test: (names: PluginNames) => string;
  /** First-party plugins the test loads beside this one (package name → export), beyond @nodwyn/testing. */
  readonly testPlugins?: Readonly<Record<string, string>>;
}

/** The manifest every template starts from; `provides` and `summary` are the kind's. */
export function manifestSource(summary: string, provides: readonly string[], extra = ''): string {
  return [
    '  manifest: {',
    '    name: PLUGIN,',
    "    version: '0.1.0',",
    "    apiVersion: '^0.1.0',",
    `    description: ${quote(summary)},`,
    `    provides: [${provides.map(quote).join(', ')}],`,
    ...(extra ? [extra] : []),
    '  },',
  ].join('\n');
}

/** `value` as a single-quoted TypeScript string. */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The lines every template's index opens with: its imports and the PLUGIN constant. */
export function header(imports: string, names: PluginNames): string {
  return `${imports}\n\n/** The package name, which is also the plugin's name in its manifest. */\nexport const PLUGIN = ${quote(names.packageName)};\n`;
}
