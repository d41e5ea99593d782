import { API_VERSION, definePlugin, type Frontend, type FrontendLaunch } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { describeFrontendConformance, frontendLaunch, pluginContextFor, recordingFrontendClient } from '../src/index.js';

/** Waits for `signal` to abort. */
function aborted(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * The smallest front end: it opens a session in the workspace, sends its arguments as one prompt, prints
 * the stop reason, and stays until it is stopped. It sees only its client, never the kernel.
 */
const lineFrontendPlugin = definePlugin({
  manifest: { name: '@example/plugin-frontend-line', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['frontend:line'] },
  register(ctx) {
    ctx.frontends.register({
      id: 'line',
      description: 'Sends its arguments as one prompt and prints how the turn ended.',
      async start({ client, workspace, args, signal }: FrontendLaunch) {
        if (signal.aborted) return 130;
        const { sessionId } = await client.newSession(workspace);
        if (args.length > 0) {
          const { stopReason } = await client.prompt(sessionId, args.join(' '));
          if (stopReason !== 'end_turn') return 1;
        }
        await aborted(signal);
        return 0;
      },
    });
  },
});

describeFrontendConformance(lineFrontendPlugin, { args: ['hello'] });

describe('the front-end test doubles', () => {
  it('record what a front end asked of its client, in order', async () => {
    const registered: Frontend[] = [];
    await lineFrontendPlugin.register(pluginContextFor(lineFrontendPlugin, { frontends: { register: (frontend) => void registered.push(frontend) } }));
    const { launch, client, abort } = frontendLaunch({ workspace: '/w', args: ['fix', 'the', 'bug'] });
    const started = registered[0]!.start(launch);
    await new Promise((resolve) => setTimeout(resolve, 10));
    abort();
    expect(await started).toBe(0);
    expect(client.calls.map((c) => [c.method, ...c.args])).toEqual([
      ['newSession', '/w'],
      ['prompt', 'session-1', 'fix the bug'],
    ]);
  });

  it('delivers emitted events to listeners, tracks the last seq, and refuses calls once closed', async () => {
    const client = recordingFrontendClient();
    const seen: string[] = [];
    const stop = client.onEvent((event) => seen.push(event.type));
    client.emit({ type: 'log', sessionId: 's', event: { session: 's', seq: 4, ts: 't', type: 'message.user', actor: 'user', payload: {}, prev: '', hash: '' } });
    stop();
    client.emit({ type: 'connection', state: 'open' });
    expect([seen, client.lastSeq('s')]).toEqual([['log'], 4]);
    await client.close();
    await expect(client.newSession('/w')).rejects.toMatchObject({ envelope: { code: 'CLIENT_CLOSED' } });
  });
});
