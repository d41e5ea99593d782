import { anthropicWire } from './anthropic-wire.js';
import { openAiChatWire } from './openai-chat-wire.js';
import { openAiResponsesWire } from './openai-responses-wire.js';
import type { WireCodec } from './wire-codec.js';
import type { WireDialect } from './wire-reply.js';

/** The codec of each dialect. */
export const WIRE_CODECS: Readonly<Record<WireDialect, WireCodec>> = {
  anthropic: anthropicWire,
  'openai-chat': openAiChatWire,
  'openai-responses': openAiResponsesWire,
};
