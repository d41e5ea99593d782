import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RedactorToken, TaintToken, type CommandIO, type TaintTracker } from '@nodwyn/plugin-api';
import { testPlugin, type TestKernel } from '@nodwyn/testing';

/** The stdio MCP server the tests spawn with `node`. */
export const STDIO_FIXTURE = fileURLToPath(new URL('../src/client/fixtures/stdio-server.mjs', import.meta.url));

/** Waits until `check` holds, polling; fails after `ms`. */
export async function until(check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The lines the fixture server appended to its marker file. */
export function marks(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** A taint tracker that remembers values as they are, like L2 without its encodings. */
export class RememberingTracker implements TaintTracker {
  private readonly remembered: { session: string; value: string; tags: readonly string[] }[] = [];
  remember(session: string, value: string, tags: readonly string[]): void {
    this.remembered.push({ session, value, tags });
  }
  tagsOf(session: string, text: string): readonly string[] {
    return this.matches(session, text);
  }
  matches(session: string, text: string): readonly string[] {
    return [...new Set(this.remembered.filter((r) => r.session === session && text.includes(r.value)).flatMap((r) => r.tags))].sort();
  }
}

const redactTestKeys = (text: string) => text.replace(/sk-test-[a-z0-9]+/g, '[REDACTED test]');

/** Text layers for the tests: an ingress stage and a redactor for `sk-test-…` keys, and the tracker. */
export function layersPlugin(tracker: TaintTracker) {
  return testPlugin('test-layers', ['service:redactor', 'service:taint', 'guard-stage:test-redact'], (ctx) => {
    ctx.services.provide(RedactorToken, { redact: (text) => ({ text: redactTestKeys(text), findings: [] }) });
    ctx.services.provide(TaintToken, tracker);
    ctx.guard.addStage({ name: 'test-redact', slot: 'ingress', filter: (_call, result) => ({ ...result, content: redactTestKeys(result.content) }) });
  });
}

/** Runs the plugin's `nodwyn mcp` command in a test kernel; returns its exit code and output. */
export async function runMcpCommand(t: TestKernel, args: string[], options: Record<string, unknown> = {}): Promise<{ code: number; out: string; err: string }> {
  const command = t.kernel.commands.get('mcp').item;
  let out = '';
  let err = '';
  const io: CommandIO = { stdin: process.stdin, write: (s) => (out += s), error: (s) => (err += s), interactive: false };
  const code = await command.run({ args, options, io });
  return { code, out, err };
}
