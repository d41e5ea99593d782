import { EnvelopeError } from '@nodwyn/plugin-api';
import { httpFailureEnvelope, transportEnvelope } from '@nodwyn/plugin-api/transport';

/** Who is streaming, for envelopes. */
export interface StreamContext {
  readonly provider: string;
  readonly operation: string;
}

/**
 * An error the server reported inside a 200 stream (a chat chunk `{"error":{…}}`, a Responses `error`
 * event or `response.failed`). Its type or code decides the envelope, as for an HTTP error answer.
 */
export function streamErrorEvent(body: unknown, context: StreamContext): EnvelopeError {
  return new EnvelopeError(httpFailureEnvelope({ status: 200, body, ...context }));
}

/** The body ended before the API's final event: the answer may be cut short, so it is not taken as finished. */
export function streamIncomplete(context: StreamContext, finalEvent: string): EnvelopeError {
  return new EnvelopeError(
    transportEnvelope('STREAM_INCOMPLETE', {
      operation: context.operation,
      plugin: context.provider,
      expected: finalEvent,
      remediation: `The answer from ${context.provider} ended before its final event (${finalEvent}), so it may be cut short. What arrived is kept in the log. Send the message again, or ask the model to continue.`,
    }),
  );
}
