import { header, manifestSource, type KindTemplate } from './kind-template.js';

/** A model provider that runs offline: it answers by repeating the person's last message. */
export const providerTemplate: KindTemplate = {
  summary: (n) => `A model provider, ${n.base}, that answers offline by repeating the last user message (a start for a real model's client).`,
  index: (n) => `${header(
    "import { definePlugin, EnvelopeError, type ModelMessage, type ModelProvider, type ModelStreamEvent, type ProviderFactory } from '@nodwyn/plugin-api';",
    n,
  )}
function lastUserText(messages: readonly ModelMessage[]): string {
  const users = messages.filter((m) => m.role === 'user');
  return users.at(-1)?.text ?? '';
}

function cancelled(): EnvelopeError {
  return new EnvelopeError({
    category: 'CANCELLED',
    code: 'PROVIDER_CANCELLED',
    operation: 'model.stream',
    plugin: PLUGIN,
    remediation: 'The model call was cancelled; nothing else needs doing.',
  });
}

/**
 * The \`${n.base}\` provider: streams "You said: …" word by word, then usage and one stop. A real provider
 * calls its model with \`request.fetch\` (the guarded fetch) and maps the model's stream to these events.
 */
export function ${n.camel}Factory(): ProviderFactory {
  return {
    id: '${n.base}',
    description: 'Answers by repeating the last user message, offline; replace with a real model client.',
    create(): ModelProvider {
      return {
        id: '${n.base}',
        model: 'echo',
        async *stream(request, signal): AsyncGenerator<ModelStreamEvent> {
          const answer = \`You said: \${lastUserText(request.messages)}\`;
          for (const word of answer.split(/(?<=\\s)/)) {
            // Checked before every event: an aborted call never yields another one.
            if (signal.aborted) throw cancelled();
            yield { type: 'text', text: word };
          }
          if (signal.aborted) throw cancelled();
          yield { type: 'usage', usage: { input: Math.ceil(JSON.stringify(request.messages).length / 4), output: Math.ceil(answer.length / 4) } };
          yield { type: 'stop', reason: 'end_turn' };
        },
      };
    },
  };
}

/** Contributes the model provider \`${n.base}\` (\`nodwyn run --provider ${n.base}\`). */
export const ${n.camel}Plugin = definePlugin({
${manifestSource(providerTemplate.summary(n), [`provider:${n.base}`])}
  register(ctx) {
    ctx.providers.register(${n.camel}Factory());
  },
});

export default ${n.camel}Plugin;
`,
  test: (n) => `import { describeProviderConformance, startTestKernel, toolLoop } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { ${n.camel}Factory, ${n.camel}Plugin } from './index.js';

describeProviderConformance('${n.base}', () => ${n.camel}Factory().create({}));

describe('the ${n.base} provider', () => {
  it('answers a run on the real kernel', async () => {
    const t = await startTestKernel({ plugins: [${n.camel}Plugin] });
    try {
      const provider = await t.kernel.providers.get('${n.base}').item.create({});
      expect(await t.run('hello there', { provider, loop: toolLoop })).toMatchObject({ reason: 'answer', answer: 'You said: hello there' });
    } finally {
      await t.stop();
    }
  });
});
`,
};
