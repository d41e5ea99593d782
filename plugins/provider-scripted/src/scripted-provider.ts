import { basename } from 'node:path';
import { checkToolArgs, EnvelopeError, type ModelProvider, type ModelRequest, type ProviderFactory } from '@nodwyn/plugin-api';
import { exhaustedError, PLUGIN_NAME } from './errors.js';
import { loadScript, type LoadedScript } from './script.js';
import { streamReply, type PlannedReply } from './stream-reply.js';
import { fill, fillDeep, templateValues } from './template.js';

/** The `scripted` provider factory: `--provider scripted --script FILE`. */
export function scriptedProviderFactory(): ProviderFactory {
  return {
    id: 'scripted',
    description: 'Plays a JSON script of replies, one per model call (tests, demos, reproductions).',
    async create(options) {
      const loaded = await loadScript(options.script);
      const provider: ModelProvider = {
        id: 'scripted',
        model: basename(loaded.path),
        stream: (request, signal) => streamReply(request, signal, (index) => planReply(loaded, index, request)),
      };
      return provider;
    },
  };
}

function planReply(loaded: LoadedScript, index: number, request: ModelRequest): PlannedReply {
  const { replies } = loaded.script;
  const reply = replies[index];
  if (reply === undefined) {
    throw exhaustedError(
      { what: `The script ${loaded.path}`, fix: 'add replies, or end the script with a text-only reply' },
      replies.length,
      index,
    );
  }
  const values = templateValues(request);
  const refused = refusedArgs(reply.toolCalls ?? []);
  if (refused) return { text: fill(reply.text ?? '', values), toolCalls: [], stopReason: 'tool_use', refused };
  // Ids depend only on the position in the script, so a replayed or restarted run names calls the same way.
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: `call_${index}_${i}`,
    name: call.name,
    args: fillDeep(call.args, values),
  }));
  return {
    text: fill(reply.text ?? '', values),
    toolCalls,
    usage: reply.usage,
    stopReason: toolCalls.length > 0 ? 'tool_use' : 'end_turn',
  };
}

// Arguments a real model could not send either (too deep or too large for the log) fail the reply after
// its text, as from a real provider; checked before the placeholders are filled, which recurses.
function refusedArgs(calls: readonly { name: string; args: unknown }[]): EnvelopeError | undefined {
  try {
    for (const call of calls) checkToolArgs(call.args, { name: call.name, plugin: PLUGIN_NAME });
    return undefined;
  } catch (error) {
    if (error instanceof EnvelopeError) return error;
    throw error;
  }
}
