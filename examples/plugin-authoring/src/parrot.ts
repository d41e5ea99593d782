import { definePlugin, EnvelopeError, type ModelProvider, type ProviderFactory } from '@nodwyn/plugin-api';

const PARROT = '@acme/nodwyn-plugin-provider-parrot';

function cancelled(): EnvelopeError {
  return new EnvelopeError({ category: 'CANCELLED', code: 'PARROT_CANCELLED', plugin: PARROT, remediation: 'The call was cancelled.' });
}

/** Streams the last user message back, word by word. */
function parrot(model: string): ModelProvider {
  return {
    id: 'parrot',
    model,
    async *stream(request, signal) {
      if (signal.aborted) throw cancelled();
      const said = request.messages.findLast((message) => message.role === 'user')?.text ?? '';
      for (const word of said.split(/(?<= )/)) {
        if (signal.aborted) throw cancelled();
        yield { type: 'text', text: word };
      }
      yield { type: 'usage', usage: { input: Math.ceil(said.length / 4), output: Math.ceil(said.length / 4) } };
      yield { type: 'stop', reason: 'end_turn' };
    },
  };
}

export const parrotFactory: ProviderFactory = {
  id: 'parrot',
  description: 'Repeats the last user message (no network).',
  create: (options) => parrot(options.model ?? 'parrot-1'),
};

export const parrotPlugin = definePlugin({
  manifest: { name: PARROT, version: '1.0.0', apiVersion: '^0.1.0', provides: ['provider:parrot'] },
  register(ctx) {
    ctx.providers.register(parrotFactory);
  },
});
