import { header, manifestSource, type KindTemplate } from './kind-template.js';

/** A guard check stage at the policy slot: denies any call whose arguments hold a forbidden pattern. */
export const stageTemplate: KindTemplate = {
  summary: (n) => `A guard stage, ${n.base}, that denies any tool call whose arguments contain a forbidden pattern (rm -rf /, a private key).`,
  index: (n) => `${header("import { definePlugin, envelope, type CheckStage, type GuardCall, type Verdict } from '@nodwyn/plugin-api';", n)}
/** What this stage forbids anywhere in a call's arguments, with the reason the model is given. */
export const FORBIDDEN: readonly { readonly pattern: RegExp; readonly reason: string }[] = [
  { pattern: /\\brm\\s+-[a-z]*r[a-z]*f?\\s+\\/(\\s|$)/i, reason: 'deletes the root folder' },
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/, reason: 'carries a private key' },
];

// Enough to see every string of real arguments; deeper or larger arguments are denied (fail closed).
const MAX_DEPTH = 32;
const MAX_STRINGS = 10_000;

/** Every string in \`value\` (keys included); undefined when it is too deep or too large to read whole. */
function stringsOf(value: unknown): string[] | undefined {
  const out: string[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return out.push(v) <= MAX_STRINGS;
    if (typeof v !== 'object' || v === null) return true;
    if (depth > MAX_DEPTH) return false;
    if (seen.has(v)) return true;
    seen.add(v);
    for (const [key, inner] of Object.entries(v)) if (!walk(key, depth + 1) || !walk(inner, depth + 1)) return false;
    return true;
  };
  return walk(value, 0) ? out : undefined;
}

function deny(call: GuardCall, remediation: string): Verdict {
  return {
    kind: 'deny',
    envelope: envelope({ category: 'PERMISSION_DENIED', code: 'ARGS_FORBIDDEN', operation: call.name, plugin: PLUGIN, remediation }),
  };
}

/** The \`${n.base}\` stage: checks every call before it runs, in the policy slot. */
export const ${n.camel}Stage: CheckStage = {
  name: '${n.base}',
  slot: 'policy',
  check(call) {
    let strings: string[] | undefined;
    try {
      strings = stringsOf(call.args);
    } catch {
      // A getter that throws: arguments this stage cannot read are arguments it cannot allow.
      strings = undefined;
    }
    if (strings === undefined) return deny(call, 'The arguments are too deep or too large to check; send smaller ones.');
    for (const { pattern, reason } of FORBIDDEN) {
      if (strings.some((s) => pattern.test(s))) return deny(call, \`The call was denied because its arguments contain something that \${reason}; do not send it.\`);
    }
    return { kind: 'allow' };
  },
};

/** Contributes the guard stage \`${n.base}\`. */
export const ${n.camel}Plugin = definePlugin({
${manifestSource(stageTemplate.summary(n), [`guard-stage:${n.base}`])}
  register(ctx) {
    ctx.guard.addStage(${n.camel}Stage);
  },
});

export default ${n.camel}Plugin;
`,
  test: (n) => `import { describeGuardStageConformance } from '@nodwyn/testing';
import { ${n.camel}Plugin } from './index.js';

describeGuardStageConformance(${n.camel}Plugin, {
  allows: [{ args: { text: 'hello' } }, { args: { command: 'rm -rf ./build' } }],
  stops: [{ args: { text: 'rm -rf /' } }, { args: { text: '-----BEGIN RSA PRIVATE KEY-----' } }],
});
`,
};
