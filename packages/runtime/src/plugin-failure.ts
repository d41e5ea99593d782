import type { PluginReport } from '@nodwyn/plugin-host';

/**
 * A plugin that did not load, as an app tells the person: which, the envelope's code, and what to do.
 * Apps print one line per plugin per process (the CLI on stderr), so a failure is never only in
 * `nodwyn plugins`.
 */
export interface PluginFailure {
  readonly plugin: string;
  readonly code: string;
  readonly remediation: string;
}

/** The failures among a host's report rows (an envelope without a code is named by its category). */
export function pluginFailures(rows: readonly PluginReport[]): PluginFailure[] {
  return rows.flatMap((row) => (row.state === 'failed' && row.envelope ? [{ plugin: row.name, code: row.envelope.code ?? row.envelope.category, remediation: row.envelope.remediation }] : []));
}
