import type { PluginFailure } from '@nodwyn/runtime';
import { forTerminal } from './terminal-text.js';

const told = new Set<string>();

/**
 * Tells the person, on stderr, that a plugin did not load: one line per plugin per process, however
 * often this process builds its distribution or boots a workspace (the trust ledger's refusal when the
 * distribution is made, the host's report when a workspace boots, a restart, a second workspace in the
 * daemon). Never stdout: it may carry JSON or a protocol (ACP, MCP stdio). A daemon started in the
 * background writes its stderr to its log file, so a client and its daemon never both print in one
 * terminal; a client attached to a daemon prints only what its own process found.
 */
export function tellPluginFailure(failure: PluginFailure): void {
  if (told.has(failure.plugin)) return;
  told.add(failure.plugin);
  // The remediation can hold a package's own text (its name, its exports map): escaped for the terminal.
  process.stderr.write(`nodwyn: ${forTerminal(`plugin ${failure.plugin} did not load: ${failure.code} — ${failure.remediation}`)}\n`);
}
