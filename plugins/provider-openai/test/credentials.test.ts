import { isEnvelopeError, type GuardedFetch } from '@nodwyn/plugin-api';
import { startWireServer, type WireServer } from '@nodwyn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatAnswer } from './loopback-server.js';
import { drain, factory, rejection, request } from './plugin-context.js';

const ENV_KEY = 'sk-test-env-key-0123456789';

/** What reached the fetch boundary. */
interface Sent {
  readonly url: string;
  readonly authorization: string | null;
}

/** A fetch that records each request and answers it itself (no network): `answer` or a short chat stream. */
function recordingFetch(sent: Sent[], answer: () => Response = () => new Response(chatAnswer('ok'), { headers: { 'content-type': 'text/event-stream' } })): GuardedFetch {
  return async (input, init) => {
    const req = new Request(input, init);
    sent.push({ url: req.url, authorization: req.headers.get('authorization') });
    return answer();
  };
}

/** A fetch that records each request, then forwards it to the loopback server. */
function forwardingFetch(sent: Sent[]): GuardedFetch {
  return async (input, init) => {
    const req = new Request(input, init);
    sent.push({ url: req.url, authorization: req.headers.get('authorization') });
    return fetch(input, init);
  };
}

function envelopeOf(error: unknown) {
  if (!isEnvelopeError(error)) throw new Error(`expected an envelope error, got ${String(error)}`);
  return error.envelope;
}

const servers: WireServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function chatServer(): Promise<WireServer> {
  const server = await startWireServer('openai-chat', [{ kind: 'stream', text: ['ok'] }]);
  servers.push(server);
  return server;
}

describe('OPENAI_API_KEY', () => {
  it('is sent to api.openai.com over https, as a Bearer token', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const sent: Sent[] = [];
    const provider = await (await factory('openai')).create({});
    const outcome = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], recordingFetch(sent)), new AbortController().signal));
    expect(outcome.error).toBeUndefined();
    expect(sent).toEqual([{ url: 'https://api.openai.com/v1/chat/completions', authorization: `Bearer ${ENV_KEY}` }]);
  });

  it('is not on the provider object, where a log or a front end could print it', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const provider = await (await factory('openai')).create({});
    expect(JSON.stringify(provider)).not.toContain(ENV_KEY);
  });

  it('never reaches a compatible server on loopback: it gets no Authorization header at all', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const server = await chatServer();
    const provider = await (await factory('openai-compatible')).create({ base_url: server.url, model: 'qwen2.5-coder' });
    const outcome = await drain(provider.stream(request([{ role: 'user', text: 'hi' }]), new AbortController().signal));
    expect(outcome.error).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(server.requests[0]!.headers)).not.toContain(ENV_KEY);
  });

  it('never reaches another host through the openai factory either', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const server = await chatServer();
    const provider = await (await factory('openai')).create({ base_url: server.url });
    await drain(provider.stream(request([{ role: 'user', text: 'hi' }]), new AbortController().signal));
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('is scrubbed from the envelope when the server echoes it back in a 401', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const body = { error: { message: `Incorrect API key provided: ${ENV_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    const answer = () => new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } });
    const provider = await (await factory('openai')).create({});
    const outcome = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], recordingFetch([], answer)), new AbortController().signal));
    const envelope = envelopeOf(outcome.error);
    expect(envelope).toMatchObject({ category: 'AUTH_FAILED', http_status: 401, request_id: 'req_1' });
    expect(JSON.stringify(envelope)).not.toContain(ENV_KEY);
  });

  it('missing, fails create for api.openai.com with AUTH_FAILED naming both ways to give a key', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const envelope = envelopeOf(await rejection(async () => (await factory('openai')).create({})));
    expect(envelope).toMatchObject({ category: 'AUTH_FAILED', code: 'CREDENTIAL_MISSING', failed_parameter: '--api-key' });
    expect(envelope.remediation).toContain('OPENAI_API_KEY');
    expect(envelope.remediation).toContain('nodwyn bind add control-plane --host api.openai.com --position header:authorization --method POST');
  });
});

describe('--api-key handle', () => {
  it('puts the literal {{secret:NAME}} in the Authorization header at the fetch boundary, for the guarded fetch to fill', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const server = await chatServer();
    const sent: Sent[] = [];
    const provider = await (await factory('openai-compatible')).create({ base_url: server.url, model: 'm', api_key: 'local-llm' });
    const outcome = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], forwardingFetch(sent)), new AbortController().signal));
    expect(outcome.error).toBeUndefined();
    expect(sent.map((s) => s.authorization)).toEqual(['Bearer {{secret:local-llm}}']);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer {{secret:local-llm}}');
  });

  it('is what a non-loopback host gets, never the environment key; `secret:NAME` spells the same handle', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const sent: Sent[] = [];
    const provider = await (await factory('openai-compatible')).create({ base_url: 'https://llm.example.com/v1', model: 'm', api_key: 'secret:team-llm' });
    await drain(provider.stream(request([{ role: 'user', text: 'hi' }], recordingFetch(sent)), new AbortController().signal));
    expect(sent).toEqual([{ url: 'https://llm.example.com/v1/chat/completions', authorization: 'Bearer {{secret:team-llm}}' }]);
  });

  it('must be a secret name, not a key', async () => {
    const envelope = envelopeOf(await rejection(async () => (await factory('openai')).create({ api_key: 'sk-proj-abc def' })));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'OPTION_INVALID', failed_parameter: '--api-key' });
  });

  it('is required for a non-loopback host: create fails with AUTH_FAILED naming the secret and bind commands for that host', async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    const envelope = envelopeOf(await rejection(async () => (await factory('openai-compatible')).create({ base_url: 'https://llm.example.com:8443/v1', model: 'm' })));
    expect(envelope).toMatchObject({ category: 'AUTH_FAILED', code: 'CREDENTIAL_MISSING' });
    expect(envelope.remediation).toContain('nodwyn secret add NAME --class control-plane');
    expect(envelope.remediation).toContain('nodwyn bind add control-plane --host llm.example.com:8443 --position header:authorization --method POST');
    expect(envelope.remediation).not.toContain('OPENAI_API_KEY');
  });
});

describe('base URL', () => {
  it('refuses plain http to a host that is not loopback at create', async () => {
    const envelope = envelopeOf(await rejection(async () => (await factory('openai-compatible')).create({ base_url: 'http://10.1.2.3:8000/v1', model: 'm', api_key: 'lan' })));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'INSECURE_BASE_URL', failed_parameter: '--base-url' });
  });

  it('allows it when settings.policy.allow_insecure_http is true', async () => {
    const settings = { policy: { allow_insecure_http: true } };
    const provider = await (await factory('openai-compatible', settings)).create({ base_url: 'http://10.1.2.3:8000/v1', model: 'm', api_key: 'lan' });
    expect(provider).toMatchObject({ id: 'openai-compatible', model: 'm' });
  });

  it('is required for openai-compatible, naming --base-url', async () => {
    const envelope = envelopeOf(await rejection(async () => (await factory('openai-compatible')).create({ model: 'm' })));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'OPTION_MISSING', failed_parameter: '--base-url' });
    expect(envelope.remediation).toContain('http://127.0.0.1:11434/v1');
  });

  it('needs --model for openai-compatible, naming --model', async () => {
    const envelope = envelopeOf(await rejection(async () => (await factory('openai-compatible')).create({ base_url: 'http://127.0.0.1:11434/v1' })));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'OPTION_MISSING', failed_parameter: '--model' });
  });
});
