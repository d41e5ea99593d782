import type { Kernel } from '@nodwyn/kernel';
import { EnvelopeError, isEnvelopeError, z } from '@nodwyn/plugin-api';
import { CapabilityInfoSchema } from '@nodwyn/protocol';
import { parsedOutput } from './command-output.js';
import { serverErrors } from './errors.js';
import { runPluginCommand } from './setup-commands.js';

/** A capability's list row, as `capability list --json` prints it. */
export type CapabilityRow = z.infer<typeof CapabilityInfoSchema>;
/** One version of a capability with its code and whether it is current. */
export type CapabilityVersionRow = { version: number; code: string; current: boolean } & Record<string, unknown>;

const HistorySchema = z.array(z.object({ version: z.number().int().positive(), current: z.boolean() }).passthrough());
const ShownSchema = z.object({ version: z.number().int().positive(), code: z.string() }).passthrough();

/** `_nodwyn/capabilities/list`: `capability list --json` in the workspace's kernel scope. */
export async function listCapabilities(kernel: Kernel): Promise<{ capabilities: CapabilityRow[] }> {
  const { stdout } = await runPluginCommand(kernel, 'capability', ['list'], { json: true });
  return { capabilities: parsedOutput(stdout, CapabilityInfoSchema.array(), 'capability list --json') };
}

/**
 * `_nodwyn/capabilities/history`: `capability history NAME --json` (every version, without code), each
 * version's code from `capability show NAME --version N --json`; oldest first.
 */
export async function capabilityHistory(kernel: Kernel, name: string): Promise<{ name: string; versions: CapabilityVersionRow[] }> {
  const history = parsedOutput((await asRequest(runPluginCommand(kernel, 'capability', ['history', name], { json: true }))).stdout, HistorySchema, 'capability history --json');
  const versions: CapabilityVersionRow[] = [];
  for (const row of [...history].sort((a, b) => a.version - b.version)) {
    const { stdout } = await runPluginCommand(kernel, 'capability', ['show', name], { version: String(row.version), json: true });
    versions.push({ ...row, code: parsedOutput(stdout, ShownSchema, 'capability show --json').code });
  }
  return { name, versions };
}

/** `_nodwyn/capabilities/rollback`: `capability rollback NAME --to N`; answers its list row after. */
export async function rollbackCapability(kernel: Kernel, name: string, to: number): Promise<{ capability: CapabilityRow }> {
  await asRequest(runPluginCommand(kernel, 'capability', ['rollback', name], { to: String(to) }));
  return { capability: await rowOf(kernel, name) };
}

/** `_nodwyn/capabilities/disable`: `capability disable NAME` (a new version; rollback restores it); answers its list row after. */
export async function disableCapability(kernel: Kernel, name: string): Promise<{ capability: CapabilityRow }> {
  await asRequest(runPluginCommand(kernel, 'capability', ['disable', name], {}));
  return { capability: await rowOf(kernel, name) };
}

async function rowOf(kernel: Kernel, name: string): Promise<CapabilityRow> {
  const row = (await listCapabilities(kernel)).capabilities.find((c) => c.name === name);
  if (row) return row;
  throw serverErrors.error('COMMAND_OUTPUT_INVALID', { operation: 'capability list --json', received_value: name, remediation: `\`nodwyn capability list\` does not list ${name} after the change; see \`nodwyn capability history ${name}\`.` });
}

/** The command's envelope with its flag (`--to`) renamed to the request's field. */
async function asRequest<T>(running: Promise<T>): Promise<T> {
  try {
    return await running;
  } catch (error) {
    if (!isEnvelopeError(error) || error.envelope.failed_parameter !== '--to') throw error;
    throw new EnvelopeError({ ...error.envelope, failed_parameter: '$.to' });
  }
}
