import type { ModelMessage, ModelRequest } from '@nodwyn/plugin-api';

/** What the placeholders of a reply stand for, taken from the request the reply answers. */
export interface TemplateValues {
  /** Text of the last `tool` message, as the model saw it; empty when there is none. */
  readonly lastToolResult: string;
  /** Text of the last `user` message; empty when there is none. */
  readonly lastUserMessage: string;
  /** The system prompt the request carried (the agent's brief); empty when it had none. */
  readonly systemPrompt: string;
}

// One pass over the template, so a value that itself contains a placeholder is not expanded again.
const PLACEHOLDER = /\{\{(lastToolResult|lastUserMessage|systemPrompt)\}\}/g;

/** Reads the placeholder values from a request. */
export function templateValues(request: Pick<ModelRequest, 'messages' | 'system'>): TemplateValues {
  const lastText = (role: ModelMessage['role']) => request.messages.findLast((message) => message.role === role)?.text ?? '';
  return { lastToolResult: lastText('tool'), lastUserMessage: lastText('user'), systemPrompt: request.system ?? '' };
}

/** Replaces every placeholder in `text`. A function replacer keeps `$&` and friends in values literal. */
export function fill(text: string, values: TemplateValues): string {
  return text.replace(PLACEHOLDER, (_match, name: keyof TemplateValues) => values[name]);
}

/** Fills every string inside a JSON value (object keys are left alone: they name parameters). */
export function fillDeep(value: unknown, values: TemplateValues): unknown {
  if (typeof value === 'string') return fill(value, values);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, values));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillDeep(item, values)]));
  }
  return value;
}
