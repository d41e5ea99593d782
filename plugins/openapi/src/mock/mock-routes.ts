import { deref, isObject, type JsonObject } from '../schema-refs.js';
import { METHODS } from '../operation-map.js';

/** One operation the mock answers. */
export interface MockRoute {
  readonly method: string;
  readonly template: string;
  readonly operationId: string;
  readonly operation: JsonObject;
  readonly pattern: RegExp;
  readonly pathParams: readonly string[];
  readonly parameters: readonly JsonObject[];
}

/** A request matched to its route, or why it is not one. */
export type RouteMatch =
  | { readonly route: MockRoute; readonly params: Readonly<Record<string, string>> }
  | { readonly status: 404 | 405; readonly message: string };

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every operation of `document` as a route; templated segments match one non-empty path segment. */
export function routesOf(document: JsonObject): MockRoute[] {
  const routes: MockRoute[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [template, rawItem] of Object.entries(paths)) {
    const item = deref(document, rawItem);
    if (!isObject(item)) continue;
    const pathParams: string[] = [];
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const param = /^\{([^}]+)\}$/.exec(part);
        if (!param) return escape(part);
        pathParams.push(param[1]!);
        return '([^/]+)';
      })
      .join('');
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const parameters = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
        .map((p) => deref(document, p))
        .filter(isObject);
      const operationId = typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${template}`;
      routes.push({ method: method.toUpperCase(), template, operationId, operation, pattern: new RegExp(`^${source}$`), pathParams, parameters });
    }
  }
  // Literal segments win over templates: /pets/mine before /pets/{id}.
  return routes.sort((a, b) => a.pathParams.length - b.pathParams.length);
}

/** The route of `method path` (path below the server's prefix), or a 404/405 like a real server. */
export function matchRoute(routes: readonly MockRoute[], method: string, path: string): RouteMatch {
  const onPath = routes.filter((route) => route.pattern.test(path));
  if (onPath.length === 0) return { status: 404, message: `no operation at ${path}` };
  const route = onPath.find((r) => r.method === method || (method === 'HEAD' && r.method === 'GET'));
  if (!route) return { status: 405, message: `${method} is not allowed on ${path}` };
  const values = route.pattern.exec(path)!.slice(1);
  const params = Object.fromEntries(route.pathParams.map((name, index) => [name, decodeURIComponent(values[index]!)]));
  return { route, params };
}

function typeError(schema: unknown, value: string): string | undefined {
  if (!isObject(schema)) return undefined;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' && !/^-?\d+$/.test(value)) return 'an integer';
  if (type === 'number' && Number.isNaN(Number(value))) return 'a number';
  if (type === 'boolean' && value !== 'true' && value !== 'false') return 'true or false';
  if (Array.isArray(schema.enum) && !schema.enum.map(String).includes(value)) return `one of ${schema.enum.join(', ')}`;
  return undefined;
}

/** Why a request's parameters are not acceptable (a 400's message), or undefined. */
export function paramProblem(document: JsonObject, route: MockRoute, params: Readonly<Record<string, string>>, url: URL, headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  for (const param of route.parameters) {
    const name = String(param.name);
    const value = param.in === 'path' ? params[name] : param.in === 'query' ? (url.searchParams.get(name) ?? undefined) : param.in === 'header' ? headers[name.toLowerCase()] : undefined;
    const text = Array.isArray(value) ? value[0] : value;
    if (text === undefined) {
      if (param.required === true && param.in !== 'cookie') return `missing required ${String(param.in)} parameter ${name}`;
      continue;
    }
    const wrong = typeError(deref(document, param.schema), text);
    if (wrong) return `${String(param.in)} parameter ${name} must be ${wrong}`;
  }
  return undefined;
}
