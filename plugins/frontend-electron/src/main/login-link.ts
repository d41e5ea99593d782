import { LoginLinkResultSchema } from '@nodwyn/protocol';
import { desktopErrors } from '../errors.js';
import type { DaemonEndpoint } from './daemon-endpoint.js';

/** The part of `fetch` the login link needs. */
export type FetchLike = (url: string, init: { method: 'POST'; headers: Record<string, string> }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/**
 * Asks the daemon for a one-time login link: `POST <http>/_nodwyn/login-link` with the bearer token from
 * serve.json. The token stays in main; the window only ever sees the link, which is spent on first use.
 */
export async function fetchLoginLink(endpoint: DaemonEndpoint, fetchLike: FetchLike): Promise<string> {
  const target = new URL('/_nodwyn/login-link', endpoint.http).toString();
  let answer: Awaited<ReturnType<FetchLike>>;
  try {
    answer = await fetchLike(target, { method: 'POST', headers: { authorization: `Bearer ${endpoint.token}` } });
  } catch (error) {
    throw loginLinkFailed(target, (error as Error).message, error);
  }
  if (!answer.ok) throw loginLinkFailed(target, `HTTP ${answer.status}`);
  const parsed = LoginLinkResultSchema.safeParse(await answer.json().catch(() => undefined));
  if (!parsed.success) throw loginLinkFailed(target, 'the answer is not { url, expiresInMs }');
  if (new URL(parsed.data.url).origin !== new URL(endpoint.http).origin) throw loginLinkFailed(target, `the link ${parsed.data.url} is not on the daemon's origin`);
  return parsed.data.url;
}

function loginLinkFailed(target: string, why: string, cause?: unknown) {
  return desktopErrors.error(
    'DESKTOP_LOGIN_LINK_FAILED',
    {
      operation: 'desktop.login-link',
      received_value: target,
      remediation: `The daemon did not give a login link (${why}). Restart the daemon from the app menu; if it persists, run \`nodwyn web --no-open\` to see the daemon's error.`,
      retryable: 'after_remediation',
    },
    cause,
  );
}
