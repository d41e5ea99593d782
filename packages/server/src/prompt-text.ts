import type { PromptBlock } from '@nodwyn/protocol';
import { serverErrors } from './errors.js';

/**
 * The text a prompt's content blocks stand for. nodwyn's models take text: a text block is itself, an
 * embedded text resource (an editor's "@file" with its content) is its content in a fence under its URI,
 * and a resource link is its URI. Images, audio and binary resources are refused with an envelope rather
 * than dropped, so the person knows the model did not see them (`initialize` says `image: false`).
 */
export function promptText(blocks: readonly PromptBlock[]): string {
  const parts = blocks.map((block, index) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource_link':
        return `@${block.uri}`;
      case 'resource':
        if (typeof block.resource.text === 'string') return `${block.resource.uri}\n\`\`\`\n${block.resource.text}\n\`\`\``;
        throw unsupported(index, 'a binary resource');
      default:
        throw unsupported(index, `an ${block.type} block`);
    }
  });
  const text = parts.join('\n\n');
  if (text.trim().length === 0) {
    throw serverErrors.error('PROMPT_EMPTY', { operation: 'session/prompt', failed_parameter: '$.prompt', remediation: 'Send a prompt with some text in it.' });
  }
  return text;
}

function unsupported(index: number, what: string): Error {
  return serverErrors.error('CONTENT_UNSUPPORTED', {
    operation: 'session/prompt',
    failed_parameter: `$.prompt[${index}]`,
    remediation: `nodwyn's models take text only; the prompt held ${what}. Describe it in words, or attach it as a text file.`,
  });
}
