import type { CheckStage, Verdict } from '@nodwyn/plugin-api';
import type { Capabilities, RegisterArgs } from './capabilities.js';
import type { CapabilityConfig } from './config.js';
import { capabilityEnvelope, PLUGIN_NAME } from './errors.js';

/**
 * The confirmation policy for register_capability (config `confirm`): with `grants` (the default) a
 * person confirms a registration that asks for more than the capability had (any read, write, host, or
 * a runner other than QuickJS); `always` asks for every registration, `never` for none. Whatever the
 * setting, a name a person disabled or removed comes back only with a person's answer.
 */
export function registrationPolicy(capabilities: Capabilities, config: CapabilityConfig): CheckStage {
  return {
    name: 'capability-registration',
    slot: 'policy',
    check(call): Verdict {
      if (call.name !== 'register_capability' || call.owner !== PLUGIN_NAME) return { kind: 'allow' };
      const args = call.args as RegisterArgs;
      const wider = capabilities.widened(args);
      const stopped = stoppedVerdict(capabilities, args.name, wider);
      if (stopped) return stopped;
      if (config.confirm === 'never') return { kind: 'allow' };
      const what = capabilities.isNew(args.name) ? `adds a new capability "${args.name}"` : `changes capability "${args.name}"`;
      if (config.confirm === 'always') return { kind: 'confirm', reason: `register_capability ${what}${wider.length > 0 ? ` with ${wider.join(', ')}` : ''}` };
      if (wider.length === 0) return { kind: 'allow' };
      return { kind: 'confirm', reason: `register_capability ${what} that may ${wider.join(', ')}` };
    },
  };
}

/**
 * A person's disable or rm is their decision, so undoing it is a question only a person may answer:
 * `security` keeps a blanket `--yes` (given without seeing this call) from answering it.
 */
function stoppedVerdict(capabilities: Capabilities, name: string, wider: readonly string[]): Verdict | undefined {
  const stopped = capabilities.stopped(name);
  if (!stopped) return undefined;
  const did = stopped.status === 'removed' ? 'removed' : 'disabled';
  const back = capabilities.lastActive(name);
  const restore = back ? `\`nodwyn capability rollback ${name} --to ${back.version}\`` : `\`nodwyn capability rollback ${name} --to N\``;
  return {
    kind: 'confirm',
    security: true,
    reason: `register_capability brings back capability "${name}", which a person ${did} (version ${stopped.version})${wider.length > 0 ? `, and it may ${wider.join(', ')}` : ''}`,
    otherwise: capabilityEnvelope('CAPABILITY_STOPPED', {
      operation: 'register_capability',
      failed_parameter: '$.name',
      received_value: name,
      remediation: `A person ${did} capability ${name} (version ${stopped.version}); registering it again needs that person's confirmation at a terminal, and --yes does not give it. Do the work another way, or ask the user to restore it with ${restore}.`,
    }),
  };
}
