import { capabilityError } from './errors.js';

type Transform = typeof import('esbuild').transform;

/** esbuild's transform, or an envelope that says it is missing (a broken install, not the model's code). */
async function compiler(): Promise<Transform> {
  try {
    const { transform } = await import('esbuild');
    if (typeof transform === 'function') return transform;
    throw new TypeError('esbuild has no transform function');
  } catch (error) {
    throw capabilityError('CAPABILITY_COMPILER_MISSING', {
      operation: 'register_capability',
      remediation: `esbuild, which strips a capability's types, cannot be loaded (${(error as Error).message}). Reinstall nodwyn (npm install keeps esbuild next to it); nothing was admitted.`,
    }, error);
  }
}

/** The esbuild message fields used here. */
interface CompilerMessage {
  readonly text: string;
  readonly location: { readonly line: number; readonly column: number; readonly lineText: string } | null;
}

/**
 * Strips the types from a capability's TypeScript and checks its syntax with esbuild (Node 20 has no
 * type stripping of its own). A syntax error is `VALIDATION_FAILED` with the compiler's message and its
 * line and column (1-based) in the submitted code. esbuild is loaded on first use: runs that never
 * register a capability never start its service.
 */
export async function stripTypes(name: string, code: string, where = '$.code'): Promise<string> {
  const transform = await compiler();
  try {
    const result = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: `${name}.ts`, logLevel: 'silent' });
    return result.code;
  } catch (error) {
    const first = (error as { errors?: readonly CompilerMessage[] }).errors?.[0];
    if (!first) throw error;
    const at = first.location ? `line ${first.location.line}, column ${first.location.column + 1}` : 'an unknown position';
    throw capabilityError('CAPABILITY_CODE_INVALID', {
      operation: 'register_capability',
      failed_parameter: where,
      received_value: first.location ? `${first.location.line}:${first.location.column + 1}: ${first.location.lineText.trim().slice(0, 160)}` : undefined,
      expected: 'TypeScript that parses',
      remediation: `The code does not compile: ${first.text} (${name}.ts, ${at}). Fix it and register again.`,
    }, error);
  }
}
