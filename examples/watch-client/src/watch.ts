import { connectDaemon } from '@nodwyn/client/node';
import { createInterface } from 'node:readline/promises';

// A client of `nodwyn serve`: one prompt in the current folder, its answer streamed, questions asked here.
const client = await connectDaemon({ clientInfo: { name: 'watch-client', version: '1.0.0' } });
const terminal = createInterface({ input: process.stdin, output: process.stderr });
client.onPermission(async (request, signal) => {
  const choices = request.options.map((o, i) => `${i + 1}) ${o.name}`).join('  ');
  const answer = await terminal.question(`\n${request.toolCall.title}? ${choices} `, { signal }).catch(() => '');
  const chosen = request.options[Number.parseInt(answer, 10) - 1];
  return chosen ? { outcome: { outcome: 'selected', optionId: chosen.optionId } } : { outcome: { outcome: 'cancelled' } };
});
client.onEvent((event) => {
  if (event.type !== 'update') return;
  const update = event.update;
  if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') process.stdout.write(update.content.text);
  if (update.sessionUpdate === 'tool_call') process.stdout.write(`\n[${update.title}]\n`);
  if (update.sessionUpdate === 'tool_call_update' && update.status === 'failed') process.stdout.write(`\n[failed: ${update.toolCallId}]\n`);
});
try {
  const { sessionId } = await client.newSession(process.cwd());
  const { stopReason } = await client.prompt(sessionId, process.argv.slice(2).join(' ') || 'What is in this folder?');
  process.stdout.write(`\n[${stopReason}] session ${sessionId}\n`);
} finally {
  terminal.close();
  await client.close();
}
