import { EnvelopeError, z, type LogEvent, type LogReader, type ModelProvider, type ProviderFactory } from '@nodwyn/plugin-api';
import { exhaustedError, PLUGIN_NAME, ScriptedErrorCode } from './errors.js';
import { streamReply, type PlannedReply } from './stream-reply.js';

// Only the fields replay uses. The log is written by the kernel, but it may come from another version,
// so its payloads are parsed here rather than trusted.
const LoggedAssistantSchema = z.object({
  text: z.string(),
  tool_calls: z.array(z.object({ id: z.string().min(1), name: z.string().min(1), args: z.unknown() })),
  usage: z
    .object({
      input: z.number().int().nonnegative(),
      output: z.number().int().nonnegative(),
      cache_read: z.number().int().nonnegative().optional(),
      cache_write: z.number().int().nonnegative().optional(),
    })
    .optional(),
  stop_reason: z.string(),
});

/** The `replay` provider factory: `--provider replay --session ID` plays that session's assistant messages. */
export function replayProviderFactory(log: LogReader): ProviderFactory {
  return {
    id: 'replay',
    description: 'Plays the assistant messages of a logged session, in order, with their original tool call ids.',
    create(options) {
      const session = options.session;
      if (session === undefined || session.trim() === '') {
        throw new EnvelopeError({
          category: 'VALIDATION_FAILED',
          code: ScriptedErrorCode.REPLAY_SESSION_MISSING,
          operation: 'provider.create',
          plugin: PLUGIN_NAME,
          failed_parameter: 'session',
          expected: 'the id of a logged session',
          remediation: 'Pass --session ID, the id of the logged session whose assistant messages to replay.',
        });
      }
      const replies = loggedReplies(log, session);
      const provider: ModelProvider = {
        id: 'replay',
        model: session,
        stream: (request, signal) =>
          streamReply(request, signal, (index) => {
            const reply = replies[index];
            if (reply !== undefined) return reply;
            throw exhaustedError(
              { what: `Session ${session}`, fix: 'replay only as many model calls as the session made, or use a scripted provider to go further' },
              replies.length,
              index,
            );
          }),
      };
      return provider;
    },
  };
}

/** Every assistant message of the session, in log order. Read once: the source session is history. */
function loggedReplies(log: LogReader, session: string): PlannedReply[] {
  const events = log.read(session);
  if (events.length === 0) {
    throw new EnvelopeError({
      category: 'NOT_FOUND',
      code: ScriptedErrorCode.REPLAY_SESSION_NOT_FOUND,
      operation: 'provider.create',
      plugin: PLUGIN_NAME,
      failed_parameter: 'session',
      received_value: session,
      expected: 'the id of a logged session',
      remediation: `No session ${session} in the log; check the id against the list of sessions.`,
    });
  }
  return events.filter((event) => event.type === 'message.assistant').map((event) => toPlannedReply(event, session));
}

function toPlannedReply(event: LogEvent, session: string): PlannedReply {
  const parsed = LoggedAssistantSchema.safeParse(event.payload);
  if (!parsed.success) {
    throw new EnvelopeError({
      category: 'UNEXPECTED_RESPONSE',
      code: ScriptedErrorCode.REPLAY_EVENT_INVALID,
      operation: 'provider.create',
      plugin: PLUGIN_NAME,
      failed_parameter: `seq ${event.seq}`,
      received_value: event.payload,
      expected: 'a message.assistant payload { text, tool_calls, usage?, stop_reason }',
      remediation: `Event ${event.seq} of session ${session} is not a well-formed assistant message; verify the session's log, or replay another session.`,
    });
  }
  const { text, tool_calls, usage, stop_reason } = parsed.data;
  return { text, toolCalls: tool_calls.map((call) => ({ id: call.id, name: call.name, args: call.args })), usage, stopReason: stop_reason };
}
