import { describe, expect, it } from 'vitest';
import { within } from './wire-suite-support.js';
import type { WireReply } from './wire-reply.js';
import { startWireServer, type WireServer } from './wire-server.js';

const BODY = JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], stream: true });

async function withServer(replies: readonly WireReply[], run: (server: WireServer) => Promise<void>): Promise<void> {
  const server = await startWireServer('openai-chat', replies);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

function post(server: WireServer, init: { body?: string; path?: string; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${server.url}${init.path ?? '/chat/completions'}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: init.body ?? BODY, signal: init.signal });
}

/** Reads a body chunk by chunk, collecting the SSE frames and how the body ended. */
async function readFrames(response: Response, onFrame?: (frame: string) => void): Promise<{ frames: string[]; rest: string; error?: unknown }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: string[] = [];
  let rest = '';
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      rest += r.value;
      for (let cut = rest.indexOf('\n\n'); cut >= 0; cut = rest.indexOf('\n\n')) {
        frames.push(rest.slice(0, cut));
        onFrame?.(rest.slice(0, cut));
        rest = rest.slice(cut + 2);
      }
    }
    return { frames, rest };
  } catch (error) {
    return { frames, rest, error };
  }
}

describe('startWireServer', () => {
  it('records each request and answers wrong routes, bad bodies and requests past the script without taking a reply', async () => {
    await withServer([{ kind: 'stream', text: ['a'] }], async (server) => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect((await post(server, { path: '/completions' })).status).toBe(404);
      expect((await post(server, { body: '{not json' })).status).toBe(400);
      expect((await post(server, { body: JSON.stringify({ model: 'gpt-5' }) })).status).toBe(400);
      const ok = await post(server);
      expect([ok.status, (await readFrames(ok)).frames.at(-1)]).toEqual([200, 'data: [DONE]']);
      const after = await post(server);
      expect([after.status, ((await after.json()) as { error: { message: string } }).error.message]).toEqual([400, 'wire server: no scripted reply left for request 5 (1 scripted)']);
      expect(server.requests.map((r) => [r.method, r.path])).toEqual([
        ['POST', '/v1/completions'],
        ['POST', '/v1/chat/completions'],
        ['POST', '/v1/chat/completions'],
        ['POST', '/v1/chat/completions'],
        ['POST', '/v1/chat/completions'],
      ]);
      expect(server.requests[3]).toMatchObject({ headers: { authorization: 'Bearer k' }, body: { model: 'gpt-5', stream: true }, finished: true, aborted: false });
      expect(server.requests[1]?.body).toBe('{not json');
    });
  });

  it('drops the connection before any byte on a reset, which the client sees as a failed fetch', async () => {
    await withServer([{ kind: 'reset' }], async (server) => {
      await expect(post(server)).rejects.toThrow(TypeError);
      await within(server.requests[0]!.settled, 5_000, 'the exchange to settle');
      expect(server.requests[0]).toMatchObject({ finished: false, aborted: false });
    });
  });

  it('delivers exactly N events before dropping the connection mid-body on resetAfterEvents', async () => {
    await withServer([{ kind: 'stream', text: ['a', 'b', 'c'], faults: { resetAfterEvents: 2 } }], async (server) => {
      const { frames, error } = await readFrames(await post(server));
      expect(frames).toHaveLength(2);
      expect(frames[1]).toContain('"content":"a"');
      expect(error).toBeInstanceOf(TypeError);
    });
  });

  it('delivers N events and half of the next, then ends the body cleanly on cutMidEventAfter', async () => {
    await withServer([{ kind: 'stream', text: ['a', 'b', 'c'], faults: { cutMidEventAfter: 2 } }], async (server) => {
      const { frames, rest, error } = await readFrames(await post(server));
      expect(error).toBeUndefined();
      expect(frames).toHaveLength(2);
      expect(rest.startsWith('data: {')).toBe(true);
      expect(rest.endsWith('\n\n')).toBe(false);
      await within(server.requests[0]!.settled, 5_000, 'the exchange to settle');
      expect(server.requests[0]?.finished).toBe(true);
    });
  });

  it('sends event N with data that is not JSON on malformedAt, and every other event intact', async () => {
    await withServer([{ kind: 'stream', text: ['a', 'b'], faults: { malformedAt: 2 } }], async (server) => {
      const { frames } = await readFrames(await post(server));
      const parses = frames.map((f) => {
        try {
          JSON.parse(f.slice('data: '.length));
          return true;
        } catch {
          return false;
        }
      });
      expect(parses).toEqual([true, true, false, true, false]);
      expect(frames.at(-1)).toBe('data: [DONE]');
    });
  });

  it('paces a slow stream, so the first event arrives while the server is still writing', async () => {
    await withServer([{ kind: 'stream', text: ['a', 'b', 'c', 'd'], delayMs: 30 }], async (server) => {
      const seen: boolean[] = [];
      const { frames } = await readFrames(await post(server), () => seen.push(server.requests[0]!.finished));
      expect(frames).toHaveLength(7);
      expect(seen[0]).toBe(false);
      await within(server.requests[0]!.settled, 5_000, 'the exchange to settle');
      expect(server.requests[0]?.finished).toBe(true);
    });
  });

  it('marks a request aborted when the client closes the connection mid-stream', async () => {
    await withServer([{ kind: 'stream', text: Array.from({ length: 50 }, () => 'x'), delayMs: 30 }], async (server) => {
      const controller = new AbortController();
      const { error } = await readFrames(await post(server, { signal: controller.signal }), () => controller.abort());
      expect((error as Error).name).toBe('AbortError');
      await within(server.requests[0]!.settled, 5_000, 'the server to see the close');
      expect(server.requests[0]).toMatchObject({ finished: false, aborted: true });
    });
  });

  it('closes promptly while a slow stream is still open', async () => {
    const server = await startWireServer('anthropic', [{ kind: 'stream', text: Array.from({ length: 50 }, () => 'x'), delayMs: 50 }]);
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages: [] }) });
    expect(response.status).toBe(200);
    await within(server.close(), 5_000, 'close');
    expect((await readFrames(response)).error).toBeInstanceOf(TypeError);
  });
});
