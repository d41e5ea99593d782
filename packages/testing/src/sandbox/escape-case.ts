import type { Category } from '@nodwyn/protocol';
import type { SandboxResult } from '@nodwyn/plugin-api/sandbox';
import { expect } from 'vitest';
import type { RunInput, SandboxFixture } from './sandbox-fixture.js';

/** The escape suite's cases, by the id a runner names in `uncontained`. */
export const SANDBOX_CASE_IDS = [
  'compute',
  'grants-missing',
  'read-granted',
  'write-granted',
  'outside-workspace',
  'nodwyn-dir',
  'spawn',
  'env',
  'net-not-granted',
  'net-granted',
  'timeout',
  'memory',
  'output-flood',
  'pollution',
  'exfiltrate-env',
  'cancel',
] as const;

/** One case of the escape suite. */
export type SandboxCaseId = (typeof SANDBOX_CASE_IDS)[number];

/** One run of a case and what must hold of its result. */
export interface Attempt {
  readonly label: string;
  readonly input: RunInput;
  expect(result: SandboxResult): void | Promise<void>;
}

/** A case: `setup` prepares files and routes, and answers the runs to make, in order. */
export interface EscapeCase {
  readonly id: SandboxCaseId;
  readonly title: string;
  setup(f: SandboxFixture): Attempt[] | Promise<Attempt[]>;
}

/** The envelope of a failed result; fails the test when the run succeeded. */
export function failed(result: SandboxResult, label: string) {
  if (result.ok) throw new Error(`${label}: expected the run to be refused, but it returned ${JSON.stringify(result.value)?.slice(0, 200)}`);
  return result.envelope;
}

/** The run failed with `category` (and `code`, when given). */
export function expectFailure(result: SandboxResult, label: string, category: Category, code?: string): void {
  const env = failed(result, label);
  expect(env.category, `${label}: ${JSON.stringify(env)}`).toBe(category);
  if (code !== undefined) expect(env.code, `${label}: ${JSON.stringify(env)}`).toBe(code);
}

/** The run returned `value`. */
export function expectValue(result: SandboxResult, label: string, value: unknown): void {
  if (!result.ok) throw new Error(`${label}: expected a value, got ${JSON.stringify(result.envelope)}`);
  expect(result.value, label).toEqual(value);
}

/** Nothing in the result (value, logs, envelope) holds `text`. */
export function expectAbsent(result: SandboxResult, text: string, label: string): void {
  expect(JSON.stringify(result), label).not.toContain(text);
}

/** Plain-JS base64, so the exfiltration case needs nothing a runner may lack (`btoa`, `Buffer`). */
export const BASE64_SOURCE = `
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function base64(text) {
  const bytes = [];
  for (const ch of unescape(encodeURIComponent(text))) bytes.push(ch.charCodeAt(0));
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
  }
  return out;
}`;
