import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { jsonPath } from '@nodwyn/plugin-api';
import { openApiError } from './errors.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True when `file` (a real path) lies inside `folder` (a real path). */
export function isInside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/** The real path of a referenced local file, refused unless it stays inside `folder`. */
export function confinedFile(folder: string, target: string, where: string, file: string): string {
  let real: string;
  try {
    real = realpathSync(target);
  } catch (cause) {
    throw openApiError('OPENAPI_REF_REFUSED', {
      operation: 'openapi.load',
      failed_parameter: where,
      received_value: target,
      expected: 'a file next to the document',
      remediation: `The $ref in ${file} names a file that does not exist. Fix the reference or put the file next to the document.`,
    }, cause);
  }
  if (!isInside(folder, real)) {
    throw openApiError('OPENAPI_REF_REFUSED', {
      operation: 'openapi.load',
      failed_parameter: where,
      received_value: target,
      expected: "a file in the document's folder",
      remediation: `The $ref in ${file} leaves the document's folder. Copy the referenced file next to the document, or inline it.`,
    });
  }
  return real;
}

/**
 * Checks every external `$ref` of a parsed document before the parser sees it: a URL (any scheme, or
 * `//host`) is refused, so loading a document never reaches the network; a relative file must stay in the
 * document's folder and is rewritten to its absolute path, because the parser resolves references of an
 * in-memory document against the process's working folder.
 */
export function confineRefs(root: unknown, folder: string, file: string): void {
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(record)) {
      if (key === '$ref' && typeof item === 'string' && !item.startsWith('#')) {
        record.$ref = localRef(item, folder, jsonPath([...path, key]), file);
      } else visit(item, [...path, key]);
    }
  };
  visit(root, []);
}

function localRef(ref: string, folder: string, where: string, file: string): string {
  if (SCHEME.test(ref) || ref.startsWith('//')) {
    throw openApiError('OPENAPI_REF_REFUSED', {
      operation: 'openapi.load',
      failed_parameter: where,
      received_value: ref,
      expected: 'a local reference (#/...) or a relative file next to the document',
      remediation: `Remote $refs are never fetched. Download ${ref} next to ${file} and reference it by a relative path.`,
    });
  }
  const hash = ref.indexOf('#');
  const target = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash);
  return confinedFile(folder, resolve(folder, decodeURIComponent(target)), where, file) + fragment;
}
