import type { Envelope, Settings, SettingsSaveOutcome } from '@nodwyn/protocol';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import type { ConfigStore } from './config-store.js';
import type { DaemonEndpoint } from './daemon-endpoint.js';
import type { DaemonSupervisor } from './daemon-supervisor.js';
import { mergeSettings } from './settings-toml.js';

/** Asks the running daemon whether settings would be accepted (`_nodwyn/settings/validate`). */
export type SettingsValidator = (settings: Settings, endpoint: DaemonEndpoint) => Promise<{ ok: boolean; envelope?: Envelope }>;

/** What saving settings works with. */
export interface SettingsSaverDeps {
  readonly supervisor: DaemonSupervisor;
  readonly config: ConfigStore;
  readonly validate: SettingsValidator;
}

/**
 * Saves settings the way Tendril should have: validate first (nothing is written for invalid settings),
 * back up config.toml, write the new file, restart the daemon with it; if the new daemon does not start,
 * put the previous bytes back, start the daemon on them, and answer the error for the window to show.
 */
export async function saveSettings(settings: Settings, deps: SettingsSaverDeps): Promise<SettingsSaveOutcome> {
  const { supervisor, config } = deps;
  const refused = (error: string): SettingsSaveOutcome => ({ ok: false, error, restored: false, state: supervisor.state() });
  const endpoint = supervisor.endpoint();
  if (!endpoint) return refused(`Settings are checked by the running daemon, and it is ${supervisor.state().state}. Restart the daemon, then save again.`);
  let previous: string | undefined;
  let next: string;
  try {
    const verdict = await deps.validate(settings, endpoint);
    if (!verdict.ok) return refused(verdict.envelope?.remediation ?? 'The daemon refused these settings.');
    previous = await config.read();
    next = mergeSettings(previous, settings);
  } catch (error) {
    return refused(describe(error));
  }
  try {
    if (previous !== undefined) await config.backup(previous);
    await config.write(next);
  } catch (error) {
    // The write goes through a rename, so a failed one leaves the previous file in place.
    return refused(`config.toml could not be written (${describe(error)}); nothing changed.`);
  }
  const started = await supervisor.startOnce();
  if (started.ok) return { ok: true, state: supervisor.state() };
  if (previous === undefined) await config.remove();
  else await config.write(previous);
  const state = await supervisor.resume();
  return { ok: false, error: `The daemon did not start with the new settings, so the previous config.toml is back. ${started.error}`, restored: true, state };
}

function describe(error: unknown): string {
  return isEnvelopeError(error) ? error.envelope.remediation : (error as Error).message;
}
