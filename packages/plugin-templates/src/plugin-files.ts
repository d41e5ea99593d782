import { KIND_TEMPLATES, PLUGIN_KINDS, type PluginKind } from './kinds/index.js';
import type { KindTemplate } from './kinds/kind-template.js';
import { invalidPluginName, pluginNames, type PluginLayout, type PluginNames } from './names.js';
import { VERSIONS } from './versions.js';

/** What to generate. */
export interface PluginFilesOptions {
  readonly kind: PluginKind;
  /** NAME: `word-count` in the monorepo (`@nodwyn/plugin-word-count`), an npm package name standalone. */
  readonly name: string;
  readonly layout: PluginLayout;
  /** Monorepo only: the plugin's folder from the workspace root; `plugins/NAME` by default. */
  readonly directory?: string;
  /** Standalone only: the folder the README's `nodwyn plugins add` names; `./<last part of NAME>` by default. */
  readonly folder?: string;
}

/** Files of a plugin: path relative to the plugin's folder → content. */
export type PluginFiles = Readonly<Record<string, string>>;

/** Thrown for a kind or NAME there is no plugin for; `field` and `expected` say what to fix. */
export class PluginTemplateError extends Error {
  constructor(
    readonly field: 'kind' | 'name',
    readonly value: string,
    readonly expected: string,
  ) {
    super(`${field} ${JSON.stringify(value)} is not ${expected}`);
    this.name = 'PluginTemplateError';
  }
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** True when `kind` names a kind there is a template for. */
export function isPluginKind(kind: string): kind is PluginKind {
  return (PLUGIN_KINDS as readonly string[]).includes(kind);
}

/**
 * The files of a new plugin of `kind`: a small but real plugin, a test that runs the kind's conformance
 * suite from @nodwyn/testing, and the package around them for the `layout` it lives in. The nx generator
 * (`nx g @nodwyn/tools:plugin`) and `nodwyn plugin new` both write exactly these.
 */
export function pluginFiles(options: PluginFilesOptions): PluginFiles {
  if (!isPluginKind(options.kind)) throw new PluginTemplateError('kind', options.kind, `one of ${PLUGIN_KINDS.join(', ')}`);
  const invalid = invalidPluginName(options.name, options.layout);
  if (invalid !== undefined) throw new PluginTemplateError('name', options.name, invalid);
  const template = KIND_TEMPLATES[options.kind];
  const names = pluginNames(options.name, options.layout);
  const sources = { 'src/index.ts': template.index(names), 'src/index.test.ts': template.test(names) };
  return options.layout === 'monorepo'
    ? { ...monorepoPackage(template, names, options.directory ?? `plugins/${options.name}`), ...sources }
    : { ...standalonePackage(template, names, options.folder ?? `./${options.name.slice(options.name.lastIndexOf('/') + 1)}`), ...sources };
}

function testPlugins(template: KindTemplate, version: string): Record<string, string> {
  return Object.fromEntries(Object.keys(template.testPlugins ?? {}).map((pkg) => [pkg, version]));
}

/** What every plugin package publishes: its built sources without tests, and its README. */
const PUBLISHED_FILES = ['dist/src', '!dist/src/**/*.test.*', 'README.md'];

/** The fields a plugin's package.json starts with, in the monorepo or out of it. */
function packageBase(template: KindTemplate, names: PluginNames) {
  return { name: names.packageName, version: '0.1.0', description: template.summary(names), type: 'module', license: 'MIT', engines: { node: '>=20.19.0' } };
}

function monorepoPackage(template: KindTemplate, names: PluginNames, directory: string): PluginFiles {
  const up = directory.split('/').filter((part) => part !== '' && part !== '.').map(() => '..').join('/');
  const dist = { types: './dist/src/index.d.ts', default: './dist/src/index.js' };
  const packageJson = {
    ...packageBase(template, names),
    repository: { type: 'git', url: 'git+https://github.com/nodwyn/nodwyn.git', directory },
    exports: { '.': { '@nodwyn/source': './src/index.ts', ...dist } },
    dependencies: { '@nodwyn/plugin-api': VERSIONS.pluginApi },
    devDependencies: { '@nodwyn/testing': VERSIONS.testing, ...testPlugins(template, VERSIONS.firstPartyPlugins) },
    nx: { tags: ['type:plugin'] },
    files: PUBLISHED_FILES,
    publishConfig: { access: 'public' },
  };
  const vitest = `import { defineProject } from 'vitest/config';
import { defaultServerConditions } from 'vite';

export default defineProject({
  ssr: { resolve: { conditions: ['@nodwyn/source', ...defaultServerConditions] } },
  test: { environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
`;
  return {
    'package.json': json(packageJson),
    'tsconfig.json': json({ extends: `${up}/tsconfig.base.json`, compilerOptions: { rootDir: '.', outDir: 'dist', tsBuildInfoFile: 'dist/tsconfig.tsbuildinfo' }, include: ['src/**/*.ts'] }),
    'tsconfig.lib.json': json({ extends: './tsconfig.json', compilerOptions: { rootDir: '.', outDir: 'dist', tsBuildInfoFile: 'dist/tsconfig.lib.tsbuildinfo' }, include: ['src/**/*.ts'], exclude: ['src/**/*.test.ts'] }),
    'vitest.config.ts': vitest,
    'README.md': readme(names, template, [`npx nx run ${names.packageName}:test`, `npx nx run ${names.packageName}:build`]),
  };
}

function standalonePackage(template: KindTemplate, names: PluginNames, folder: string): PluginFiles {
  const packageJson = {
    ...packageBase(template, names),
    exports: { '.': { types: './dist/src/index.d.ts', default: './dist/src/index.js' } },
    files: PUBLISHED_FILES,
    keywords: ['nodwyn-plugin'],
    scripts: { build: 'tsc -p tsconfig.json', test: 'vitest run' },
    peerDependencies: { '@nodwyn/plugin-api': VERSIONS.apiRange },
    devDependencies: {
      '@nodwyn/plugin-api': VERSIONS.pluginApi,
      '@nodwyn/testing': VERSIONS.testing,
      ...testPlugins(template, VERSIONS.firstPartyPlugins),
      '@types/node': VERSIONS.typesNode,
      typescript: VERSIONS.typescript,
      vitest: VERSIONS.vitest,
    },
  };
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    declaration: true,
    rootDir: '.',
    outDir: 'dist',
    skipLibCheck: true,
    types: ['node'],
  };
  const vitest = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
`;
  return {
    'package.json': json(packageJson),
    'tsconfig.json': json({ compilerOptions, include: ['src/**/*.ts'] }),
    'vitest.config.ts': vitest,
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': readme(names, template, ['npm install', 'npm run build', 'npm test', `nodwyn plugins add ${folder} --yes`]),
  };
}

function readme(names: PluginNames, template: KindTemplate, commands: readonly string[]): string {
  return `# ${names.packageName}

${template.summary(names)}

Made with the nodwyn plugin generator: \`src/index.ts\` is the plugin, \`src/index.test.ts\` runs its kind's
conformance suite from \`@nodwyn/testing\` on the real kernel (docs/plugin-authoring.md).

\`\`\`sh
${commands.join('\n')}
\`\`\`
`;
}
