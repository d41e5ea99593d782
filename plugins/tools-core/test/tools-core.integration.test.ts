import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEnvelopeError, type ApplyResult } from '@nodwyn/plugin-api';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsCorePlugin } from '../src/index.js';

let running: TestKernel | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(settings: Record<string, unknown> = {}): Promise<TestKernel> {
  running = await startTestKernel({ plugins: [toolsCorePlugin], settings });
  return running;
}

function content(result: ApplyResult): string {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.envelope)}`);
  return result.content;
}

describe('tools-core through the kernel', () => {
  it('registers its tools as model-visible primitives owned by the plugin', async () => {
    const kernel = await start();
    const tools = kernel.kernel.primitives.list().filter((tool) => tool.owner === '@nodwyn/plugin-tools-core');
    expect(tools.map((tool) => tool.name).sort()).toEqual(['edit_file', 'glob', 'grep', 'list_dir', 'read_file', 'shell', 'write_file']);
    expect(tools.every((tool) => tool.visibility === 'model')).toBe(true);
  });

  it('writes, edits and reads a file in the workspace', async () => {
    const kernel = await start();
    expect(content(await kernel.apply('write_file', { path: 'notes/a.md', content: 'hello\nworld\n' }))).toBe('Created notes/a.md (12 bytes written).');
    expect(content(await kernel.apply('edit_file', { path: 'notes/a.md', old_string: 'world', new_string: 'there' }))).toBe(
      'Edited notes/a.md: replaced 1 occurrence at line 2.',
    );
    expect(content(await kernel.apply('read_file', { path: 'notes/a.md' }))).toBe('     1\thello\n     2\tthere');
    expect(readFileSync(join(kernel.workspace, 'notes/a.md'), 'utf8')).toBe('hello\nthere\n');
  });

  it('returns a path escape as the plugin envelope, logged as a failed call', async () => {
    const kernel = await start();
    const session = kernel.session();
    const result = await kernel.apply('read_file', { path: '../../etc/passwd' }, { session });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.envelope).toMatchObject({ category: 'PERMISSION_DENIED', code: 'PATH_OUTSIDE_WORKSPACE', plugin: '@nodwyn/plugin-tools-core' });
    expect(kernel.events(session).map((event) => event.type)).toContain('tool.failed');
  });

  it('asks for a confirmation before a shell command that is not allow-listed', async () => {
    const kernel = await start({ tools: { shell: { allow: ['cat *'] } } });
    const denied = await kernel.apply('shell', { command: 'echo hi > out.txt' });
    expect(denied.ok ? undefined : denied.envelope.category).toBe('CONFIRMATION_REQUIRED');
    expect(content(await kernel.apply('shell', { command: 'echo hi' }, { confirm: true }))).toBe('exit code: 0\nhi');
  });

  it('runs an allow-listed command without a confirmation', async () => {
    const kernel = await start({ tools: { shell: { allow: ['cat *'] } } });
    await kernel.apply('write_file', { path: 'a.txt', content: 'from a file\n' });
    expect(content(await kernel.apply('shell', { command: 'cat a.txt' }))).toBe('exit code: 0\nfrom a file');
    const injected = await kernel.apply('shell', { command: 'cat a.txt; touch pwned' });
    expect(injected.ok ? undefined : injected.envelope.category).toBe('CONFIRMATION_REQUIRED');
  });

  it('refuses to load with a malformed allow-list, naming the entry', async () => {
    const failure: unknown = await startTestKernel({ plugins: [toolsCorePlugin], settings: { tools: { shell: { allow: ['ls', 'ls | sh'] } } } }).then(
      (kernel) => kernel.stop().then(() => new Error('expected the plugin to fail')),
      (error: unknown) => error,
    );
    expect(isEnvelopeError(failure) && failure.envelope).toMatchObject({ code: 'CONFIG_INVALID', failed_parameter: '$.tools.shell.allow[1]' });
  });
});
