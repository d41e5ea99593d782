import { parseConfigToml } from '@nodwyn/runtime';
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'smol-toml';
import { serverErrors } from './errors.js';

/** The person's config.toml as parsed TOML, every table kept; `{}` when there is none yet. */
export function readPersonConfig(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw serverErrors.error('CONFIG_WRITE_FAILED', { operation: 'config.read', received_value: path, remediation: `nodwyn could not read ${path} (${code ?? String(error)}); make it a file you can read and write.` }, error);
  }
  return parseConfigToml(text, path);
}

/**
 * Writes the person's config.toml: a private temp file (mode 0600) in the same folder, flushed, then
 * renamed over the old one, so a crash leaves the old config or the new one, never half of one. Values
 * are kept; comments are not (TOML is rewritten from its parsed form).
 */
export function writePersonConfig(path: string, config: Record<string, unknown>): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${stringify(config)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw serverErrors.error('CONFIG_WRITE_FAILED', { operation: 'config.write', received_value: path, remediation: `nodwyn could not write ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); make its folder writable.` }, error);
  }
}
