import type { AgentCommand } from '@nodwyn/plugin-api';
import { capabilityRows } from './capability-rows.js';
import type { Registry } from './registry.js';

/** Longest description kept per line of the list. */
const DESCRIPTION_MAX = 80;

/**
 * `/capabilities [TEXT]`: the capabilities models registered, as a person asks in any front end: each
 * one's name, current version, runner and state (`active`, `disabled`, `removed`, or `tampered` when its
 * stored row fails the hash check). TEXT keeps those whose name contains it. Reading only: a person's
 * controls (rollback, disable, rm) stay `nodwyn capability` in a terminal.
 */
export function capabilitiesAgentCommand(registry: Registry): AgentCommand {
  return {
    name: 'capabilities',
    description: 'List the capabilities models registered: name, version, runner and state',
    hint: 'part of a name, to filter',
    async run({ input }) {
      const filter = input.trim().toLowerCase();
      const all = capabilityRows(registry);
      const rows = filter === '' ? all : all.filter((v) => v.name.toLowerCase().includes(filter));
      if (all.length === 0) return 'No capabilities are registered. A model registers one with register_capability; `nodwyn capability list` shows them in a terminal.';
      if (rows.length === 0) return `No capability name contains "${input.trim()}" (${all.length} registered; /capabilities lists them all).`;
      const lines = rows.map((v) => `- ${v.name} v${v.version} (${v.runner}, ${v.status}): ${oneLine(v.description)}`);
      const active = all.filter((v) => v.status === 'active').length;
      return [`${all.length} capabilit${all.length === 1 ? 'y' : 'ies'}, ${active} active:`, ...lines, 'Manage them in a terminal: `nodwyn capability show|history|rollback|disable|rm NAME`.'].join('\n');
    },
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DESCRIPTION_MAX ? `${line.slice(0, DESCRIPTION_MAX - 1)}…` : line;
}
