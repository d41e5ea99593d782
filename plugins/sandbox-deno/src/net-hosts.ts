import { parseNetGrant } from '@nodwyn/plugin-api';
import { denoError } from './errors.js';

/**
 * Checks and normalises the `net` grant with plugin-api's `parseNetGrant`, the parser the capability
 * registry stores grants with. Each entry becomes part of `--allow-net=…`, so anything that is not exactly
 * `host` or `host:port` is refused: an empty entry or a `*` would widen the flag, a comma would smuggle in
 * another host, userinfo or an IPv4 shorthand would name a host the person did not read. Deno matches
 * names literally, so `localhost` does not grant `127.0.0.1` (measured).
 *
 * @throws EnvelopeError SANDBOX_GRANT_INVALID naming the first bad entry
 */
export function normalizeNetHosts(hosts: readonly unknown[] | undefined): string[] {
  if (hosts === undefined) return [];
  if (!Array.isArray(hosts)) throw invalid('$.grants.net', hosts);
  return hosts.map((host, index) => {
    const grant = typeof host === 'string' ? parseNetGrant(host) : undefined;
    if (!grant) throw invalid(`$.grants.net[${index}]`, host);
    return grant.text;
  });
}

function invalid(parameter: string, value: unknown) {
  return denoError('SANDBOX_GRANT_INVALID', {
    failed_parameter: parameter,
    received_value: value,
    expected: 'a list of hosts, each `host` or `host:port` (e.g. "api.example.com" or "127.0.0.1:8080")',
    remediation: 'Grant network hosts as plain names or addresses with an optional port; wildcards, URLs, user@host, IPv4 shorthands and lists in one entry are not accepted.',
  });
}
