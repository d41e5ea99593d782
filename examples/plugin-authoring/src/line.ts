import { definePlugin } from '@nodwyn/plugin-api';

export const lineFrontendPlugin = definePlugin({
  manifest: { name: '@acme/nodwyn-plugin-frontend-line', version: '1.0.0', apiVersion: '^0.1.0', provides: ['frontend:line'] },
  register(ctx) {
    ctx.frontends.register({
      id: 'line',
      description: 'Sends its arguments as one prompt and prints the answer.',
      async start({ client, workspace, args, signal }) {
        if (signal.aborted) return 130;
        const { sessionId } = await client.newSession(workspace);
        const stop = client.onEvent((event) => {
          if (event.type === 'update' && event.update.sessionUpdate === 'agent_message_chunk' && event.update.content.type === 'text') {
            process.stdout.write(event.update.content.text);
          }
        });
        signal.addEventListener('abort', () => void client.cancel(sessionId), { once: true });
        const { stopReason } = await client.prompt(sessionId, args.join(' '));
        stop();
        return stopReason === 'end_turn' ? 0 : 1;
      },
    });
  },
});
