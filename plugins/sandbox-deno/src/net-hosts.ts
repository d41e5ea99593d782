import { denoError } from './errors.js';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = `${LABEL}(?:\\.${LABEL})*`;
const IPV6 = '\\[[0-9a-f:.]+\\]';
const HOST = new RegExp(`^(?:${NAME}|${IPV6})(?::(\\d{1,5}))?$`);

/**
 * Checks and lower-cases the `net` grant. Each entry becomes part of `--allow-net=…`, so anything that is
 * not exactly `host` or `host:port` is refused: an empty entry or a `*` would widen the flag, a comma
 * would smuggle in another host, and `=` or spaces have no meaning there. Deno matches names literally,
 * so `localhost` does not grant `127.0.0.1` (measured).
 *
 * @throws EnvelopeError SANDBOX_GRANT_INVALID naming the first bad entry
 */
export function normalizeNetHosts(hosts: readonly unknown[] | undefined): string[] {
  if (hosts === undefined) return [];
  if (!Array.isArray(hosts)) throw invalid('$.grants.net', hosts);
  return hosts.map((host, index) => {
    const lower = typeof host === 'string' ? host.toLowerCase() : '';
    const match = HOST.exec(lower);
    const port = match?.[1] === undefined ? undefined : Number(match[1]);
    if (!match || (port !== undefined && (port < 1 || port > 65_535))) throw invalid(`$.grants.net[${index}]`, host);
    return lower;
  });
}

function invalid(parameter: string, value: unknown) {
  return denoError('SANDBOX_GRANT_INVALID', {
    failed_parameter: parameter,
    received_value: value,
    expected: 'a list of hosts, each `host` or `host:port` (e.g. "api.example.com" or "127.0.0.1:8080")',
    remediation: 'Grant network hosts as plain names or addresses with an optional port; wildcards, URLs and lists in one entry are not accepted.',
  });
}
