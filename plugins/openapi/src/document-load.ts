import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, parse, validate, type ParserOptions } from '@readme/openapi-parser';
import { isEnvelopeError, jsonPath } from '@nodwyn/plugin-api';
import { confinedFile, confineRefs } from './document-refs.js';
import { markedLine, pathAtLine } from './document-path.js';
import { openApiError } from './errors.js';

/** Largest document file read, in bytes. */
export const DOCUMENT_MAX_BYTES = 32 * 1024 * 1024;

/** A validated OpenAPI document: self-contained (only internal `#/` references left). */
export interface LoadedDocument {
  /** The document, bundled: external local files merged in, internal `$ref`s kept. */
  readonly document: Record<string, unknown>;
  /** sha256 of the bundled document's JSON, recorded so a stored copy is validated once. */
  readonly digest: string;
}

/** sha256 (hex) of a document's JSON text. */
export function documentDigest(json: string): string {
  return createHash('sha256').update(json).digest('hex');
}

function refused(error: unknown, file: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  return openApiError('OPENAPI_REF_REFUSED', {
    operation: 'openapi.load',
    failed_parameter: basename(file),
    expected: 'references to local files next to the document',
    remediation: `A $ref in ${file} (or a file it references) could not be resolved locally: ${message.split('\n')[0]!.slice(0, 200)}. Remote references are never fetched.`,
  }, error);
}

/** Parser options: files only inside `folder`, never the network. */
function parserOptions(folder: string, file: string): ParserOptions {
  const confined = {
    order: 1,
    canRead: (entry: { url: string }) => !/^https?:/i.test(entry.url),
    read: (entry: { url: string }) => {
      const path = entry.url.startsWith('file:') ? fileURLToPath(entry.url) : decodeURIComponent(entry.url);
      const real = confinedFile(folder, path, entry.url, file);
      const text = readFileSync(real, 'utf8');
      if (/\$ref["']?\s*:\s*["']?(?:[A-Za-z][A-Za-z0-9+.-]*:|\/\/)/.test(text)) throw new Error(`${basename(real)} references a URL`);
      return text;
    },
  };
  const remote = { read: () => Promise.reject(new Error('remote $ref refused')) };
  return { resolve: { external: true, file: confined, http: remote } } as unknown as ParserOptions;
}

async function parsed(file: string): Promise<Record<string, unknown>> {
  try {
    const document = (await parse(file, { resolve: { file: true } })) as unknown;
    if (typeof document === 'object' && document !== null && !Array.isArray(document)) return document as Record<string, unknown>;
    throw new Error('the top level is not an object');
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw openApiError('OPENAPI_DOCUMENT_SYNTAX', {
      operation: 'openapi.load',
      failed_parameter: basename(file),
      expected: 'an OpenAPI document in JSON or YAML',
      remediation: `${file} cannot be parsed: ${message.split('\n')[0]!.slice(0, 200)}. Fix the syntax and try again.`,
    }, cause);
  }
}

function checkVersion(document: Record<string, unknown>, file: string): void {
  const version = document.openapi;
  if (typeof version === 'string' && /^3\.[01]\.\d+$/.test(version)) return;
  throw openApiError('OPENAPI_DOCUMENT_INVALID', {
    operation: 'openapi.load',
    failed_parameter: '$.openapi',
    received_value: version ?? document.swagger,
    expected: 'OpenAPI 3.0.x or 3.1.x',
    remediation: `${file} is not an OpenAPI 3.0 or 3.1 document. Convert a Swagger 2.0 document to OpenAPI 3 first.`,
  });
}

async function validated(document: Record<string, unknown>, folder: string, file: string): Promise<void> {
  // validate() dereferences in place: give it a copy and read the code frame's line against that copy.
  const copy = structuredClone(document);
  const result = await validate(copy as never, parserOptions(folder, file));
  if (result.valid) return;
  const first = result.errors[0]?.message ?? 'invalid document';
  const line = markedLine(first);
  const path = line === undefined ? undefined : pathAtLine(copy, line);
  throw openApiError('OPENAPI_DOCUMENT_INVALID', {
    operation: 'openapi.load',
    failed_parameter: path ? jsonPath(path) : basename(file),
    expected: 'a valid OpenAPI 3.0 or 3.1 document',
    remediation: `${file}: ${first.split('\n')[0]!.slice(0, 200)}${result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : ''}. Fix the document and add it again.`,
  });
}

/**
 * Reads, parses (JSON or YAML), bundles and validates an OpenAPI 3.0/3.1 document with
 * `@readme/openapi-parser`. External references are read only from files inside the document's folder;
 * a URL reference is refused before anything is resolved, so loading never touches the network.
 * Every failure is an envelope naming the file and, where the validator points at one, the JSON path.
 */
export async function loadDocument(file: string): Promise<LoadedDocument> {
  let real: string;
  try {
    real = realpathSync(file);
    const size = statSync(real).size;
    if (size > DOCUMENT_MAX_BYTES) throw new Error(`${size} bytes is more than ${DOCUMENT_MAX_BYTES}`);
  } catch (cause) {
    throw openApiError('OPENAPI_DOCUMENT_UNREADABLE', {
      operation: 'openapi.load',
      failed_parameter: basename(file),
      remediation: `${file} cannot be read (${cause instanceof Error ? cause.message : String(cause)}). Check the path.`,
    }, cause);
  }
  const folder = dirname(real);
  const raw = await parsed(real);
  checkVersion(raw, file);
  confineRefs(raw, folder, file);
  let document: Record<string, unknown>;
  try {
    document = (await bundle(raw as never, parserOptions(folder, file))) as unknown as Record<string, unknown>;
  } catch (cause) {
    if (isEnvelopeError(cause)) throw cause;
    throw refused(cause, file);
  }
  try {
    await validated(document, folder, file);
  } catch (cause) {
    if (isEnvelopeError(cause)) throw cause;
    throw refused(cause, file);
  }
  return { document, digest: documentDigest(JSON.stringify(document)) };
}
