import { basename } from 'node:path';
import type { ModelMessage, ModelProvider, ProviderFactory } from '@nodwyn/plugin-api';
import { exhaustedError } from './errors.js';
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
        stream: (request, signal) => streamReply(request, signal, (index) => planReply(loaded, index, request.messages)),
      };
      return provider;
    },
  };
}

function planReply(loaded: LoadedScript, index: number, messages: readonly ModelMessage[]): PlannedReply {
  const { replies } = loaded.script;
  const reply = replies[index];
  if (reply === undefined) {
    throw exhaustedError(
      { what: `The script ${loaded.path}`, fix: 'add replies, or end the script with a text-only reply' },
      replies.length,
      index,
    );
  }
  const values = templateValues(messages);
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
