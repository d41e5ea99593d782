/** Where the files go: a workspace package of the monorepo, or an npm package of its own. */
export type PluginLayout = 'monorepo' | 'standalone';

/** The names one plugin is written with, all derived from the NAME its author gave. */
export interface PluginNames {
  /** The npm package name, also the manifest's `name`. */
  readonly packageName: string;
  /** The last part of the name without a `nodwyn-plugin-` or `plugin-` prefix, kebab-case (`word-count`). */
  readonly base: string;
  /** `base` in snake_case, as a model tool is named (`word_count`). */
  readonly snake: string;
  /** `base` in camelCase (`wordCount`). */
  readonly camel: string;
}

// npm's rule for a package name (lowercase, URL-safe, an optional scope), kept short enough for a folder.
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
// In the monorepo NAME is the folder under plugins/ and the tail of `@nodwyn/plugin-NAME`.
const MONOREPO_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_NAME = 100;

/** Why `name` cannot name a plugin of `layout`, or undefined when it can. */
export function invalidPluginName(name: string, layout: PluginLayout): string | undefined {
  if (name.length === 0 || name.length > MAX_NAME) return `a name of 1 to ${MAX_NAME} characters`;
  if (layout === 'monorepo') return MONOREPO_NAME.test(name) ? undefined : 'lowercase words of letters and digits joined by hyphens, starting with a letter (word-count)';
  if (!PACKAGE_NAME.test(name)) return 'an npm package name: lowercase letters, digits, ".", "_" and "-", optionally scoped (@acme/nodwyn-plugin-word-count)';
  return /[a-z]/.test(baseOf(name)) ? undefined : 'a name with at least one letter after its scope and prefix';
}

function baseOf(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const stripped = last.replace(/^(nodwyn-)?plugin-/, '');
  return (stripped === '' ? last : stripped).replace(/[._]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '');
}

/** The names of plugin NAME; call `invalidPluginName` first. */
export function pluginNames(name: string, layout: PluginLayout): PluginNames {
  const base = baseOf(name);
  const words = base.split('-').filter((w) => w !== '');
  return {
    packageName: layout === 'monorepo' ? `@nodwyn/plugin-${name}` : name,
    base: words.join('-'),
    snake: words.join('_'),
    camel: words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join(''),
  };
}
