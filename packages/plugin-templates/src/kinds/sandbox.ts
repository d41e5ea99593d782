import { header, manifestSource, type KindTemplate } from './kind-template.js';

const HOST_PLUGINS = {
  '@nodwyn/plugin-sandbox-quickjs': 'sandboxQuickjsPlugin',
  '@nodwyn/plugin-tools-core': 'toolsCorePlugin',
  '@nodwyn/plugin-keychain': 'keychainPlugin',
  '@nodwyn/plugin-egress': 'egressPlugin',
  '@nodwyn/plugin-redact-l1': 'redactL1Plugin',
  '@nodwyn/plugin-redact-l2': 'redactL2Plugin',
} as const;

/**
 * A sandbox runner that narrows the QuickJS runner: tighter limits, and never more than it is granted.
 * Containment itself is QuickJS's; a runner of a new runtime replaces \`inner\` with its own engine.
 */
export const sandboxTemplate: KindTemplate = {
  summary: (n) => `A sandbox runner, ${n.base}, that runs model-written code in the QuickJS runner with tighter limits (30 s, 32 MiB).`,
  index: (n) => `${header(
    "import { definePlugin } from '@nodwyn/plugin-api';\nimport { sandboxRunnerToken, type SandboxLimits, type SandboxRunner } from '@nodwyn/plugin-api/sandbox';",
    n,
  )}
/** The most a run may take here, whatever it asks for. */
export const CEILING: SandboxLimits = { timeoutMs: 30_000, outputCap: 256 * 1024, memoryMb: 32 };

function capped(limits: Partial<SandboxLimits> = {}): Partial<SandboxLimits> {
  return {
    timeoutMs: Math.min(limits.timeoutMs ?? CEILING.timeoutMs, CEILING.timeoutMs),
    outputCap: Math.min(limits.outputCap ?? CEILING.outputCap, CEILING.outputCap),
    memoryMb: Math.min(limits.memoryMb ?? CEILING.memoryMb, CEILING.memoryMb),
  };
}

/** The \`${n.base}\` runner over \`inner\` (looked up per run, so it may load after this plugin). */
export function ${n.camel}Runner(inner: () => SandboxRunner): SandboxRunner {
  return {
    id: '${n.base}',
    description: 'Runs model-written code in the QuickJS runner with at most 30 s, 32 MiB and 256 KiB of output a run.',
    network: 'guarded',
    run: (request) => inner().run({ ...request, limits: capped(request.limits) }),
  };
}

/** Provides the sandbox runner \`sandbox.${n.base}\`. */
export const ${n.camel}Plugin = definePlugin({
${manifestSource(sandboxTemplate.summary(n), [`service:sandbox.${n.base}`], "    requires: ['service:sandbox.quickjs'],")}
  register(ctx) {
    ctx.services.provide(sandboxRunnerToken('${n.base}'), ${n.camel}Runner(() => ctx.services.get(sandboxRunnerToken('quickjs'))));
  },
});

export default ${n.camel}Plugin;
`,
  test: (n) => `${Object.entries(HOST_PLUGINS)
    .map(([pkg, name]) => `import { ${name} } from '${pkg}';`)
    .join('\n')}
import { describeSandboxRunnerConformance } from '@nodwyn/testing';
import { ${n.camel}Plugin } from './index.js';

describeSandboxRunnerConformance({
  plugin: ${n.camel}Plugin,
  id: '${n.base}',
  hostPlugins: [${Object.values(HOST_PLUGINS).join(', ')}],
});
`,
  testPlugins: HOST_PLUGINS,
};
