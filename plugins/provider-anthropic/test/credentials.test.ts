import { EnvelopeError, isEnvelopeError, type Envelope, type GuardedFetch } from '@nodwyn/plugin-api';
import { startWireServer, type WireServer } from '@nodwyn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { anthropicFactory, drain, request } from './plugin-context.js';

const ENV_KEY = 'sk-ant-api03-env-test-key';
const HI = [{ role: 'user' as const, text: 'hi' }];

let server: WireServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** What the provider handed to the fetch it was given. */
interface Sent {
  readonly url: string;
  readonly headers: Headers;
}

/** A fetch that records each request and answers with a minimal Messages stream, touching no network. */
function cannedFetch(sent: Sent[]): GuardedFetch {
  const sse = ['message_start', 'message_delta', 'message_stop']
    .map((type) => `event: ${type}\ndata: ${JSON.stringify(type === 'message_delta' ? { type, delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } } : { type, message: { usage: { input_tokens: 1 } } })}\n\n`)
    .join('');
  return async (input, init) => {
    sent.push({ url: String(input instanceof Request ? input.url : input), headers: new Headers(init?.headers) });
    return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

/** Wraps the global fetch, recording the headers at the boundary the kernel's guarded fetch sits on. */
function recordingFetch(sent: Sent[]): GuardedFetch {
  return async (input, init) => {
    sent.push({ url: String(input instanceof Request ? input.url : input), headers: new Headers(init?.headers) });
    return fetch(input, init);
  };
}

function createFailure(run: () => unknown): Envelope {
  try {
    run();
  } catch (error) {
    if (isEnvelopeError(error)) return error.envelope;
    throw error;
  }
  throw new Error('expected create() to fail');
}

describe('credentials', () => {
  it('sends ANTHROPIC_API_KEY to https://api.anthropic.com as a Bearer authorization header, never as x-api-key', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    const sent: Sent[] = [];
    const provider = await (await anthropicFactory()).create({ model: 'claude-haiku-4-5' });
    const { error } = await drain(provider.stream(request(HI, cannedFetch(sent)), new AbortController().signal));
    expect(error).toBeUndefined();
    expect(sent.map((s) => s.url)).toEqual(['https://api.anthropic.com/v1/messages']);
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${ENV_KEY}`);
    expect(sent[0]!.headers.get('anthropic-version')).toBe('2026-10-21');
    expect(sent[0]!.headers.has('x-api-key')).toBe(false);
  });

  it('sends no key from the environment to a loopback server (not ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or ANTHROPIC_CUSTOM_HEADERS)', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', 'sk-ant-oat-env-token');
    vi.stubEnv('ANTHROPIC_CUSTOM_HEADERS', 'x-api-key: sk-ant-custom-header');
    server = await startWireServer('anthropic', [{ kind: 'stream', text: ['ok'] }]);
    const provider = await (await anthropicFactory()).create({ base_url: server.url, model: 'claude-haiku-4-5' });
    const { error } = await drain(provider.stream(request(HI), new AbortController().signal));
    expect(error).toBeUndefined();
    const headers = server.requests[0]!.headers;
    expect([headers.authorization, headers['x-api-key']]).toEqual([undefined, undefined]);
    expect(JSON.stringify(headers)).not.toContain('sk-ant');
  });

  it('puts the literal {{secret:NAME}} handle of --api-key in the authorization header at the fetch boundary', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    vi.stubEnv('ANTHROPIC_CUSTOM_HEADERS', 'Authorization: Bearer sk-ant-custom-header\nx-api-key: sk-ant-custom-header');
    server = await startWireServer('anthropic', [{ kind: 'stream', text: ['ok'] }]);
    const sent: Sent[] = [];
    const provider = await (await anthropicFactory()).create({ base_url: server.url, api_key: 'anthropic-work', model: 'claude-haiku-4-5' });
    const { error } = await drain(provider.stream(request(HI, recordingFetch(sent)), new AbortController().signal));
    expect(error).toBeUndefined();
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer {{secret:anthropic-work}}');
    expect(sent[0]!.headers.has('x-api-key')).toBe(false);
  });

  it('refuses a host that is neither Anthropic nor loopback without --api-key, even with ANTHROPIC_API_KEY set, naming the commands', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    const factory = await anthropicFactory();
    const envelope = createFailure(() => factory.create({ base_url: 'https://llm.example.com' }));
    expect([envelope.category, envelope.code, envelope.failed_parameter]).toEqual(['AUTH_FAILED', 'CREDENTIAL_MISSING', '--api-key']);
    expect(envelope.remediation).toContain('nodwyn secret add NAME --class control-plane');
    expect(envelope.remediation).toContain('nodwyn bind add control-plane --host llm.example.com --position header:authorization --method POST');
    expect(JSON.stringify(envelope)).not.toContain(ENV_KEY);
  });

  it('names ANTHROPIC_API_KEY when Anthropic itself has no key', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const factory = await anthropicFactory();
    const envelope = createFailure(() => factory.create({}));
    expect([envelope.category, envelope.code]).toEqual(['AUTH_FAILED', 'CREDENTIAL_MISSING']);
    expect(envelope.remediation).toContain('ANTHROPIC_API_KEY');
  });

  it('refuses a key given where a keychain handle name belongs, without repeating it', async () => {
    const factory = await anthropicFactory();
    const envelope = createFailure(() => factory.create({ base_url: 'http://127.0.0.1:9', api_key: 'sk-ant-api03-pasted-by-mistake' }));
    expect([envelope.code, envelope.received_value]).toEqual(['OPTION_INVALID', '[sensitive]']);
    expect(JSON.stringify(envelope)).not.toContain('pasted-by-mistake');
  });

  it('refuses plain http to a host that is not loopback unless policy.allow_insecure_http is set', async () => {
    const options = { base_url: 'http://llm.internal:8080', api_key: 'internal-llm' };
    const strict = await anthropicFactory();
    const envelope = createFailure(() => strict.create(options));
    expect([envelope.category, envelope.code, envelope.failed_parameter]).toEqual(['VALIDATION_FAILED', 'INSECURE_BASE_URL', '--base-url']);
    const relaxed = await anthropicFactory({ policy: { allow_insecure_http: true } });
    expect(relaxed.create(options)).toMatchObject({ id: 'anthropic', model: 'claude-sonnet-4-6' });
  });

  it('fails with the guarded fetch\'s own envelope (an egress denial), once, without retrying it as a connection error', async () => {
    const denial = new EnvelopeError({ category: 'PERMISSION_DENIED', code: 'GUARD_EGRESS_UNBOUND', remediation: 'bind the class first' });
    let calls = 0;
    const denying: GuardedFetch = async () => {
      calls += 1;
      throw denial;
    };
    const provider = await (await anthropicFactory()).create({ base_url: 'http://127.0.0.1:9', model: 'claude-haiku-4-5' });
    const { events, error } = await drain(provider.stream(request(HI, denying, 5), new AbortController().signal));
    expect(isEnvelopeError(error) && [error.envelope.category, error.envelope.code]).toEqual(['PERMISSION_DENIED', 'GUARD_EGRESS_UNBOUND']);
    expect(events).toEqual([]);
    expect(calls).toBe(1);
  });
});
