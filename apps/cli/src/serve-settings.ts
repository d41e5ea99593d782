import { configPath, loadConfig } from '@nodwyn/runtime';
import { serverErrors, type TlsMaterial } from '@nodwyn/server';
import { readFileSync } from 'node:fs';

/** Where the daemon listens, from the person's `[serve]` section. */
export interface ServeSettings {
  readonly host?: string;
  readonly tls?: TlsMaterial;
}

/**
 * Reads `[serve] host`, `tls_cert` and `tls_key` from the person's config.toml (a repository's config
 * cannot set them). One TLS file without the other is TLS_REQUIRED; an unreadable one TLS_INVALID.
 * A host beyond loopback without TLS is refused when the daemon starts (TLS_REQUIRED, naming the keys).
 */
export function serveSettings(path = configPath()): ServeSettings {
  const serve = loadConfig(path).serve ?? {};
  const { host, tls_cert: cert, tls_key: key } = serve;
  if ((cert === undefined) !== (key === undefined)) {
    throw serverErrors.error('TLS_REQUIRED', {
      operation: 'serve',
      failed_parameter: cert === undefined ? '[serve] tls_cert' : '[serve] tls_key',
      received_value: path,
      expected: 'both [serve] tls_cert and [serve] tls_key (PEM files), or neither',
      remediation: `Set both [serve] tls_cert and [serve] tls_key in ${path}, or remove both to serve plain http on 127.0.0.1.`,
    });
  }
  return { ...(host === undefined ? {} : { host }), ...(cert === undefined || key === undefined ? {} : { tls: { cert: readPem(cert, 'tls_cert'), key: readPem(key, 'tls_key') } }) };
}

function readPem(file: string, key: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw serverErrors.error(
      'TLS_INVALID',
      { operation: 'serve', failed_parameter: `[serve] ${key}`, received_value: file, remediation: `nodwyn could not read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}); point [serve] ${key} at a PEM file you can read.` },
      error,
    );
  }
}
