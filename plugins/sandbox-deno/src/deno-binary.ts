import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { denoError } from './errors.js';

/**
 * The npm package that carries Deno's binary for this machine (`@deno/linux-x64-glibc` here). The `deno`
 * package lists one per platform as optional dependencies and npm installs only the matching one.
 */
export function denoBinaryPackage(os: string = platform(), cpu: string = arch()): string {
  return `@deno/${os}-${cpu}${os === 'linux' ? '-glibc' : ''}`;
}

function resolveFrom(base: string, specifier: string): string | undefined {
  try {
    return createRequire(base).resolve(specifier);
  } catch {
    // Not installed where this base looks; the caller tries the next base, then reports what it tried.
    return undefined;
  }
}

/**
 * The path of the Deno binary, found through module resolution rather than `npx` (which costs ~380 ms a
 * call) or PATH (which a person, or a repository's tooling, could shadow). Looked up from this package,
 * then from the `deno` package whose optional dependency the binary package is.
 *
 * @throws EnvelopeError SANDBOX_RUNTIME_MISSING when no binary for this platform is installed
 */
export function resolveDenoBinary(os: string = platform(), cpu: string = arch()): string {
  const pkg = denoBinaryPackage(os, cpu);
  const manifest = `${pkg}/package.json`;
  const viaDeno = resolveFrom(import.meta.url, 'deno/package.json');
  const found = resolveFrom(import.meta.url, manifest) ?? (viaDeno ? resolveFrom(viaDeno, manifest) : undefined);
  const binary = found ? join(dirname(found), os === 'win32' ? 'deno.exe' : 'deno') : undefined;
  if (binary !== undefined && isExecutable(binary)) return binary;
  throw denoError('SANDBOX_RUNTIME_MISSING', {
    received_value: binary ?? `${pkg} is not installed`,
    expected: `the Deno binary from ${pkg}`,
    remediation: `No Deno binary for ${os}-${cpu} is installed (looked for ${pkg}); run npm install on a platform the deno package ships, or use the quickjs runner.`,
  });
}

/** True when `path` exists and may be executed. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Missing or not executable: both mean there is no runtime to start.
    return false;
  }
}
