import type { InjectionToken } from 'tsyringe';
import type { KernelPort } from './kernel-port.js';

// Plain `Symbol()` rather than plugin-api's `createToken` (which uses `Symbol.for`): a plugin could
// otherwise forge the key with `createToken(name)`, `services.get` it from its child container and
// reach the kernel around its context, skipping ownership and the provides check.

/** Root-container key of the {@link KernelPort}. */
export const KernelPortToken: InjectionToken<KernelPort> = Symbol('nodwyn.plugin-host.kernel-port');

/** Root-container key of the frozen user settings. */
export const SettingsToken: InjectionToken<Readonly<Record<string, unknown>>> = Symbol('nodwyn.plugin-host.settings');
