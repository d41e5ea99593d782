import type { Kernel } from '@nodwyn/kernel';
import { EnvelopeError, isEnvelopeError, z } from '@nodwyn/plugin-api';
import type { Binding } from '@nodwyn/protocol';
import { parsedOutput } from './command-output.js';
import { runPluginCommand } from './setup-commands.js';

/** `bind list --json`: class → its destinations, as bindings.toml holds them. */
const BindingTableSchema = z.record(
  z.string(),
  z.array(z.object({ host: z.string(), path_prefix: z.string().optional(), positions: z.array(z.string()), methods: z.array(z.string()) })),
);

/** The params each flag of `bind` comes from, so a refusal names the request's field rather than the flag. */
const PARAM_OF: Readonly<Record<string, string>> = { CLASS: '$.class', '--host': '$.host', '--path': '$.path', '--position': '$.position', '--method': '$.method' };

/** `_nodwyn/bindings/list`: the egress plugin's `bind list --json`, one row per destination. */
export async function listBindings(kernel: Kernel): Promise<{ bindings: Binding[] }> {
  const { stdout } = await runPluginCommand(kernel, 'bind', ['list'], { json: true });
  const table = parsedOutput(stdout, BindingTableSchema, 'bind list --json');
  return {
    bindings: Object.entries(table).flatMap(([cls, destinations]) =>
      destinations.map((d) => ({ class: cls, host: d.host, ...(d.path_prefix === undefined ? {} : { path: d.path_prefix }), position: d.positions, method: d.methods })),
    ),
  };
}

/** `_nodwyn/bindings/add`: `bind add CLASS --host … [--path …] --position … --method …`; answers the bindings after it. */
export async function addBinding(kernel: Kernel, binding: Binding): Promise<{ bindings: Binding[] }> {
  const options = { host: binding.host, ...(binding.path === undefined ? {} : { path: binding.path }), position: binding.position, method: binding.method };
  await asRequest(runPluginCommand(kernel, 'bind', ['add', binding.class], options));
  return listBindings(kernel);
}

/** `_nodwyn/bindings/remove`: `bind rm CLASS [--host …] [--path …]`; answers the bindings after it. */
export async function removeBindings(kernel: Kernel, which: { class: string; host?: string; path?: string }): Promise<{ bindings: Binding[] }> {
  const options = { ...(which.host === undefined ? {} : { host: which.host }), ...(which.path === undefined ? {} : { path: which.path }) };
  await asRequest(runPluginCommand(kernel, 'bind', ['rm', which.class], options));
  return listBindings(kernel);
}

/** The command's own envelope, its `failed_parameter` (a flag) renamed to the request's field. */
async function asRequest<T>(running: Promise<T>): Promise<T> {
  try {
    return await running;
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    const field = PARAM_OF[error.envelope.failed_parameter ?? ''];
    throw field ? new EnvelopeError({ ...error.envelope, failed_parameter: field }) : error;
  }
}
