import canonicalize from 'canonicalize';
import type { Envelope, PrimitiveCallContext } from '@nodwyn/plugin-api';
import type { SandboxResult } from '@nodwyn/plugin-api/sandbox';
import type { Example } from './capability.js';
import { stripTypes } from './compile.js';
import { capabilityEnvelope } from './errors.js';
import type { RunInput } from './run-version.js';

/** How one example went. */
export type ExampleOutcome =
  | { readonly index: number; readonly ok: true; readonly output: unknown }
  | { readonly index: number; readonly ok: false; readonly envelope: Envelope };

/** Runs code in the sandbox (a capability's, or a predicate with no grants). */
export type SandboxRun = (input: Pick<RunInput, 'code' | 'args'> & { readonly predicate?: boolean }, call: PrimitiveCallContext) => Promise<SandboxResult>;

const SHOWN = 400;

function shown(value: unknown): string {
  const text = canonicalize(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

/**
 * Strips the types of every example's `check` predicate, wrapped as a module the sandbox runs with
 * `{ output, args }`; all at once, since each is a round trip to esbuild's service.
 */
export function compilePredicates(name: string, examples: readonly Example[]): Promise<(string | undefined)[]> {
  return Promise.all(
    examples.map((example, index) =>
      example.check === undefined
        ? undefined
        : stripTypes(`${name}.examples.${index}.check`, `const check = (${example.check});\nexport default (a) => check(a.output, a.args);\n`, `$.examples[${index}].check`),
    ),
  );
}

/**
 * Runs every example in the sandbox, one after the other, and reports each: its output must equal
 * `expect` (as canonical JSON), or `check(output, args)` must return exactly true. Stops at the first
 * failure when `stopAtFailure`.
 */
export async function runExamples(
  name: string,
  compiled: string,
  examples: readonly Example[],
  predicates: readonly (string | undefined)[],
  run: SandboxRun,
  call: PrimitiveCallContext,
  stopAtFailure: boolean,
): Promise<ExampleOutcome[]> {
  const outcomes: ExampleOutcome[] = [];
  for (const [index, example] of examples.entries()) {
    const outcome = await runExample(name, compiled, example, predicates[index], index, run, call);
    outcomes.push(outcome);
    if (!outcome.ok && stopAtFailure) break;
  }
  return outcomes;
}

async function runExample(
  name: string,
  compiled: string,
  example: Example,
  predicate: string | undefined,
  index: number,
  run: SandboxRun,
  call: PrimitiveCallContext,
): Promise<ExampleOutcome> {
  const where = `$.examples[${index}]`;
  const failed = (remediation: string, fields: { received_value?: unknown; expected?: string } = {}): ExampleOutcome => ({
    index,
    ok: false,
    envelope: capabilityEnvelope('CAPABILITY_EXAMPLE_FAILED', { operation: name, failed_parameter: where, ...fields, remediation }),
  });
  const result = await run({ code: compiled, args: example.args }, call);
  if (!result.ok) {
    const e = result.envelope;
    return failed(`Example ${index + 1} (args ${shown(example.args)}) failed in the sandbox: ${e.code ?? e.category}: ${e.remediation}${result.logs ? ` Its log: ${result.logs.slice(0, SHOWN)}` : ''}`, {
      received_value: e.code ?? e.category,
    });
  }
  if (example.check === undefined || predicate === undefined) {
    if (canonicalize(result.value) === canonicalize(example.expect)) return { index, ok: true, output: result.value };
    return failed(`Example ${index + 1} (args ${shown(example.args)}) returned ${shown(result.value)}, but ${shown(example.expect)} was expected. Fix the code or the example, then register again.`, {
      received_value: shown(result.value),
      expected: shown(example.expect),
    });
  }
  const verdict = await run({ code: predicate, args: { output: result.value, args: example.args }, predicate: true }, call);
  if (verdict.ok && verdict.value === true) return { index, ok: true, output: result.value };
  const why = verdict.ok ? `returned ${shown(verdict.value)}, not true` : `failed: ${verdict.envelope.code ?? verdict.envelope.category}: ${verdict.envelope.remediation}`;
  return failed(`Example ${index + 1} (args ${shown(example.args)}) returned ${shown(result.value)}; its check ${why}. Fix the code or the example, then register again.`, {
    received_value: shown(result.value),
    expected: `check ${example.check.slice(0, SHOWN)} returns true`,
  });
}
