import type { CheckStage, Verdict } from '@nodwyn/plugin-api';
import type { Capabilities, RegisterArgs } from './capabilities.js';
import type { CapabilityConfig } from './config.js';
import { PLUGIN_NAME } from './errors.js';

/**
 * The confirmation policy for register_capability (config `confirm`): with `grants` (the default) a
 * person confirms a registration that asks for more than the capability had (any read, write, host, or
 * a runner other than QuickJS); `always` asks for every registration, `never` for none.
 */
export function registrationPolicy(capabilities: Capabilities, config: CapabilityConfig): CheckStage {
  return {
    name: 'capability-registration',
    slot: 'policy',
    check(call): Verdict {
      if (call.name !== 'register_capability' || call.owner !== PLUGIN_NAME || config.confirm === 'never') return { kind: 'allow' };
      const args = call.args as RegisterArgs;
      const wider = capabilities.widened(args);
      const what = capabilities.isNew(args.name) ? `adds a new capability "${args.name}"` : `changes capability "${args.name}"`;
      if (config.confirm === 'always') return { kind: 'confirm', reason: `register_capability ${what}${wider.length > 0 ? ` with ${wider.join(', ')}` : ''}` };
      if (wider.length === 0) return { kind: 'allow' };
      return { kind: 'confirm', reason: `register_capability ${what} that may ${wider.join(', ')}` };
    },
  };
}
