import { readFileSync } from 'node:fs';
import type { ApiEntry, ConfiguredApi } from './api-config.js';
import { documentDigest, loadDocument } from './document-load.js';
import { mapDocument, type MappedOperation } from './operation-map.js';
import type { JsonObject } from './schema-refs.js';

/** An API's document and its tools. */
export interface LoadedApi {
  readonly name: string;
  readonly document: JsonObject;
  readonly operations: readonly MappedOperation[];
  readonly auth: Readonly<Record<string, string>>;
  /** The oauth2 scheme the person logged in with (`nodwyn openapi login`). */
  readonly oauth?: ApiEntry['oauth'];
}

/**
 * The bundled copy `nodwyn openapi add` validated, when its digest still matches: parsed, not validated
 * again, so a large document costs one JSON parse per start. Undefined when it must be loaded in full.
 */
function vouchedCopy(api: ConfiguredApi): JsonObject | undefined {
  if (api.entry.digest === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(api.document, 'utf8');
  } catch {
    return undefined;
  }
  return documentDigest(text) === api.entry.digest ? (JSON.parse(text) as JsonObject) : undefined;
}

/** Maps an already loaded document to the API's tools. */
export function apiFromDocument(api: ConfiguredApi, document: JsonObject): LoadedApi {
  const operations = mapDocument(document, {
    api: api.name,
    file: api.entry.source ?? api.document,
    ...(api.entry.operations ? { operations: api.entry.operations } : {}),
    ...(api.entry.base_url ? { baseUrl: api.entry.base_url } : {}),
  });
  return { name: api.name, document, operations, auth: api.entry.auth ?? {}, ...(api.entry.oauth ? { oauth: api.entry.oauth } : {}) };
}

/** Loads one configured API: its vouched copy, else the document read, bundled and validated in full. */
export async function loadApi(api: ConfiguredApi): Promise<LoadedApi> {
  const document = vouchedCopy(api) ?? (await loadDocument(api.document)).document;
  return apiFromDocument(api, document);
}
