import type { ToolKind } from '@nodwyn/plugin-api';
import type { OperationDescriptor, ParamDescriptor } from '@nodwyn/plugin-api/transport';
import { openApiError } from './errors.js';
import { requestSchema, type SchemaFacts } from './request-schema.js';
import { deref, isObject, type JsonObject } from './schema-refs.js';
import { serverUrl } from './server-url.js';
import { toolNames } from './tool-name.js';
import { parseXAgent, type XAgent } from './x-agent.js';
import { descriptorOf, tierOf } from './operation-descriptor.js';

/** HTTP methods an OpenAPI path item may hold that become tools. */
export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;

/** One operation of a document, mapped to what a tool needs. */
export interface MappedOperation {
  /** The model tool name: `<api>_<operation in snake case>`. */
  readonly tool: string;
  /** The document's operationId, or `METHOD path` when it has none. */
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly descriptor: OperationDescriptor;
  /** JSON Schema of the tool's arguments: parameters under their wire names, the body under `body`. */
  readonly inputSchema: JsonObject;
  readonly kind: ToolKind;
  /** The security requirements that apply (operation's, else the document's): scheme name → scopes. */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  /** Summary and description, compacted. */
  readonly description: string;
  /** A streamed operation's bounds, from `x-agent.stream` (defaults in api-stream.ts); absent for other operations. */
  readonly stream?: StreamBounds;
}

/** How a streamed operation's tool reads its events: idle timeout and collection budgets, in ms, events and bytes. */
export interface StreamBounds {
  readonly idleMs?: number;
  readonly maxEvents?: number;
  readonly maxBytes?: number;
  readonly maxMs?: number;
}

/** What a document is mapped with. */
export interface MapOptions {
  /** The API's name, the tools' prefix and the descriptors' id prefix. */
  readonly api: string;
  /** Only these operationIds (tool names are still counted over the whole document). */
  readonly operations?: readonly string[];
  /** Replaces the document's servers. */
  readonly baseUrl?: string;
  /** Names the document in envelopes. */
  readonly file: string;
}

interface Found {
  readonly path: string;
  readonly method: (typeof METHODS)[number];
  readonly operation: JsonObject;
  readonly item: JsonObject;
  readonly operationId: string;
}

/** Whitespace collapsed, cut at `max` characters. */
export function compact(text: string, max = 1000): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function operationsOf(document: JsonObject): Found[] {
  const found: Found[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(document, rawItem);
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const operationId = typeof operation.operationId === 'string' && operation.operationId !== '' ? operation.operationId : `${method.toUpperCase()} ${path}`;
      found.push({ path, method, operation, item, operationId });
    }
  }
  return found;
}

/**
 * Maps a bundled, validated document to tools: one per operation (or per selected operationId), each with
 * its operation descriptor for the runtime (contract A), the JSON Schema of its arguments and its tier.
 * Names are computed over every operation, so selecting a subset never renames a tool.
 */
export function mapDocument(document: JsonObject, options: MapOptions): MappedOperation[] {
  const all = operationsOf(document);
  const names = toolNames(options.api, all.map((op) => op.operationId));
  const selected = new Set(options.operations ?? all.map((op) => op.operationId));
  for (const wanted of selected) {
    if (!all.some((op) => op.operationId === wanted)) {
      throw openApiError('OPENAPI_OPERATION_UNKNOWN', {
        operation: 'openapi.load',
        failed_parameter: 'operations',
        received_value: wanted,
        expected: `an operationId of ${options.file}`,
        remediation: `${options.file} has no operation ${JSON.stringify(wanted)}. List its operations with \`nodwyn openapi add ${options.file} --name ${options.api}\` and pick existing operationIds.`,
      });
    }
  }
  const base = serverUrl(document, options);
  const openapi30 = typeof document.openapi === 'string' && document.openapi.startsWith('3.0');
  const ids = new Map(all.map((op) => [op.operationId, `${options.api}.${op.operationId}`]));
  const mapped: MappedOperation[] = [];
  all.forEach((op, index) => {
    if (!selected.has(op.operationId)) return;
    const xAgent = parseXAgent(op.operation['x-agent'], ['paths', op.path, op.method], options.file);
    mapped.push(mapOne(document, op, { tool: names[index]!, base, openapi30, xAgent, ids, api: options.api }));
  });
  return mapped;
}

interface OneOptions {
  readonly tool: string;
  readonly base: string;
  readonly openapi30: boolean;
  readonly xAgent: XAgent;
  readonly ids: ReadonlyMap<string, string>;
  readonly api: string;
}

function parametersOf(document: JsonObject, op: Found): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const list of [op.item.parameters, op.operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = deref(document, raw);
      if (isObject(param) && typeof param.name === 'string' && typeof param.in === 'string') merged.set(`${param.in}:${param.name}`, param);
    }
  }
  return [...merged.values()];
}

function mapOne(document: JsonObject, op: Found, options: OneOptions): MappedOperation {
  const facts: SchemaFacts = { sensitive: [] };
  const properties: JsonObject = {};
  const required: string[] = [];
  const params: ParamDescriptor[] = [];
  for (const param of parametersOf(document, op)) {
    // Cookies are not sent by the runtime; an operation needing one fails at the server, which says so.
    if (param.in === 'cookie') continue;
    const name = param.name as string;
    const schema = requestSchema(document, param.schema ?? {}, { openapi30: options.openapi30, prefix: name, facts });
    if (typeof param.description === 'string') schema.description = compact(param.description, 300);
    properties[name] = schema;
    const isRequired = param.required === true || param.in === 'path';
    if (isRequired) required.push(name);
    const paramSchema = deref(document, param.schema);
    const sensitive = param['x-agent-sensitive'] === true || (isObject(paramSchema) && paramSchema['x-agent-sensitive'] === true);
    params.push({ name, in: param.in as ParamDescriptor['in'], required: isRequired, ...(sensitive ? { sensitive: true } : {}) });
  }
  const body = bodyOf(document, op.operation);
  if (body) {
    properties.body = requestSchema(document, body.schema, { openapi30: options.openapi30, prefix: 'body', facts });
    if (body.required) required.push('body');
  }
  const description = compact([op.operation.summary, op.operation.description].filter((t): t is string => typeof t === 'string').join('. '));
  const inputSchema: JsonObject = { type: 'object', properties, additionalProperties: false, ...(required.length > 0 ? { required } : {}) };
  const descriptor = descriptorOf({
    id: options.ids.get(op.operationId)!,
    method: op.method.toUpperCase(),
    url: `${options.base}${op.path}`,
    params,
    body: body ? { required: body.required, mediaType: body.mediaType } : undefined,
    description,
    xAgent: options.xAgent,
    sensitive: facts.sensitive,
    stream: streams(document, op.operation),
    ids: options.ids,
  });
  return {
    tool: options.tool,
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    descriptor,
    inputSchema,
    kind: kindOf(tierOf(op.method, options.xAgent)),
    security: securityOf(document, op.operation),
    description,
    ...(descriptor.stream ? { stream: boundsOf(options.xAgent) } : {}),
  };
}

function boundsOf(xAgent: XAgent): StreamBounds {
  const stream = xAgent.stream ?? {};
  return {
    ...(stream.idle_ms ? { idleMs: stream.idle_ms } : {}),
    ...(stream.max_events ? { maxEvents: stream.max_events } : {}),
    ...(stream.max_bytes ? { maxBytes: stream.max_bytes } : {}),
    ...(stream.max_ms ? { maxMs: stream.max_ms } : {}),
  };
}

function bodyOf(document: JsonObject, operation: JsonObject): { schema: unknown; required: boolean; mediaType: 'application/json' | 'application/x-www-form-urlencoded' } | undefined {
  const requestBody = deref(document, operation.requestBody);
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const content = requestBody.content;
  const json = Object.keys(content).find((type) => /^application\/([\w.+-]+\+)?json\b/i.test(type));
  const mediaType = json ? 'application/json' : 'application/x-www-form-urlencoded' in content ? 'application/x-www-form-urlencoded' : undefined;
  if (!mediaType) return undefined;
  const media = content[json ?? mediaType];
  return { schema: isObject(media) ? (media.schema ?? {}) : {}, required: requestBody.required === true, mediaType };
}

function streams(document: JsonObject, operation: JsonObject): boolean {
  const responses = isObject(operation.responses) ? operation.responses : {};
  return Object.entries(responses).some(([status, raw]) => {
    const response = deref(document, raw);
    return /^2/.test(status) && isObject(response) && isObject(response.content) && 'text/event-stream' in response.content;
  });
}

function securityOf(document: JsonObject, operation: JsonObject): Record<string, string[]>[] {
  const list = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : [];
  return list.filter(isObject).map((entry) => Object.fromEntries(Object.entries(entry).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []])));
}

function kindOf(tier: string): ToolKind {
  if (tier === 'read') return 'fetch';
  return tier === 'mutate' ? 'edit' : 'delete';
}
