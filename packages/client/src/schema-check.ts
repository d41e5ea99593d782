import { clientError } from './protocol-error.js';

/** What a failed zod parse says, as far as the client reads it (it uses the protocol's schemas, not zod). */
export interface IssueList {
  readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>;
}

/** A zod schema, as far as the client uses one. */
export interface SchemaLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: IssueList };
}

/** What a schema parses to. */
export type Parsed<S extends SchemaLike> = Extract<ReturnType<S['safeParse']>, { success: true }>['data'];

/** The first issue of a failed parse, as `$.path: message`. */
export function issueOf(error: IssueList): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${jsonPath(issue.path)}: ${issue.message}`;
}

/** `params` as `schema` makes them (defaults filled in); refuses them before anything is sent. */
export function checkParams<S extends SchemaLike>(schema: S, params: unknown, method: string): Parsed<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data as Parsed<S>;
  const issue = parsed.error.issues[0];
  throw clientError('CLIENT_PARAMS_INVALID', {
    operation: method,
    failed_parameter: issue === undefined ? undefined : jsonPath(issue.path),
    received_value: params,
    expected: issue?.message,
    remediation: `The params of ${method} do not match the protocol (${issueOf(parsed.error)}); nothing was sent. Fix them and call again.`,
  });
}

/** The agent's answer to `method`, checked against the protocol's schema. */
export function checkResult<S extends SchemaLike>(schema: S, result: unknown, method: string): Parsed<S> {
  const parsed = schema.safeParse(result);
  if (parsed.success) return parsed.data as Parsed<S>;
  throw clientError('CLIENT_RESPONSE_INVALID', {
    operation: method,
    received_value: result,
    expected: issueOf(parsed.error),
    remediation: `The agent answered ${method} with a shape the protocol does not allow (${issueOf(parsed.error)}). The daemon and this client likely speak different protocol versions; update the older one.`,
  });
}

function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return ['$', ...path.map(String)].join('.');
}
