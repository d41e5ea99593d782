import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

/** What a person must never see: a stack frame, or the minified bundle's source. */
function expectNoStackTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('chunk-');
  expect(stderr).not.toContain('UNEXPECTED_ERROR');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('nodwyn log verify of a session that does not exist', () => {
  it('is SESSION_NOT_FOUND, not "log intact"', () => {
    expect(box.run(['run', 'hi', '--script', box.script([{ text: 'hello' }])]).code).toBe(0);
    const out = box.run(['log', 'verify', 'NO_SUCH_ID']);
    expect(out.code).toBe(3);
    expect(out.stdout).not.toContain('intact');
    expect(out.stderr).toContain('NOT_FOUND SESSION_NOT_FOUND');
    expect(out.stderr).toContain('NO_SUCH_ID');
    expect(box.run(['log', 'verify']).code).toBe(0);
  });
});

describe('a broken configuration is one envelope for every command', () => {
  const commands = [['run', 'x'], ['secret', 'list'], ['bind', 'list'], ['capability', 'list'], ['tools'], ['plugins']];

  it.each(commands)('a TOML syntax error names the file, line and column: %s', (...args) => {
    writeFileSync(join(box.home, 'config.toml'), '[budgets]\nmax_turns = [\n');
    const out = box.run(args);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('VALIDATION_FAILED CONFIG_INVALID_TOML');
    expect(out.stderr).toMatch(/at line \d+, column \d+/);
    expectNoStackTrace(out.stderr);
  });

  it.each(commands)('config.toml as a folder is CONFIG_NOT_A_FILE: %s', (...args) => {
    mkdirSync(join(box.home, 'config.toml'));
    const out = box.run(args);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('PRECONDITION_FAILED CONFIG_NOT_A_FILE');
    expectNoStackTrace(out.stderr);
  });

  it.each([...commands, ['log', 'list'], ['log', 'verify'], ['fork', 'x'], ['trust', '--status']])('NODWYN_HOME as a file is HOME_NOT_A_DIRECTORY: %s', (...args) => {
    const file = join(box.root, 'not-a-folder');
    writeFileSync(file, 'x');
    const out = box.run(args, undefined, box.workspace, { NODWYN_HOME: file });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('PRECONDITION_FAILED HOME_NOT_A_DIRECTORY');
    expect(out.stderr).toContain(file);
    expect(out.stdout).not.toContain('no sessions yet');
    expectNoStackTrace(out.stderr);
  });
});

describe('a bad numeric option says what is wrong', () => {
  it.each([
    [['run', 'x', '--max-turns', '0'], '--max-turns', '0'],
    [['run', 'x', '--max-turns', '1.5'], '--max-turns', '1.5'],
    [['run', 'x', '--max-tool-calls', '-1'], '--max-tool-calls', '-1'],
    [['run', 'x', '--max-cost', 'abc'], '--max-cost', 'abc'],
    [['run', 'x', '--max-cost', '0'], '--max-cost', '0'],
    [['fork', 'some-session', '--at', 'abc'], '--at', 'abc'],
    [['fork', 'some-session', '--at', '0'], '--at', '0'],
  ])('%j exits 2 with OPTION_INVALID', (args, flag, value) => {
    const out = box.run(args);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('VALIDATION_FAILED OPTION_INVALID');
    expect(out.stderr).toContain(`parameter: ${flag}`);
    expect(out.stderr).toContain(`received:  ${value}`);
    expect(out.stderr).toContain('expected:');
    expect(box.sessions()).toEqual([]);
  });

  it('prints the envelope as JSON with --json', () => {
    const out = box.run(['run', 'x', '--json', '--max-cost', 'abc']);
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stderr)).toMatchObject({ status: 'error', code: 'OPTION_INVALID', failed_parameter: '--max-cost', received_value: 'abc', expected: 'a number above 0' });
  });
});

describe('SIGTERM and SIGHUP cancel like Ctrl-C', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s kills the tool\'s child, logs the cancel, exits 130 and leaves a verifiable log', async (signal) => {
    const pidFile = join(box.root, 'child.pid');
    const sleeper = box.write(join(box.root, 'sleeper.cjs'), `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 30000);\n`);
    const script = box.script([{ toolCalls: [{ name: 'shell', args: { command: `node ${sleeper}` } }] }, { text: 'never' }]);
    const child = box.start(['run', 'x', '--yes', '--script', script]);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 'the tool to start');
    const toolPid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(toolPid)).toBe(true);
    child.kill(signal);
    expect(await closed).toBe(130);
    await until(() => !alive(toolPid), 'the tool process to end');
    const session = /session: (\S+)/.exec(stderr)?.[1];
    expect(session).toBeDefined();
    const end = box.events(session!).at(-1)!;
    expect([end.type, end.payload.reason]).toEqual(['turn.ended', 'cancelled']);
    expect(box.run(['log', 'verify']).code).toBe(0);
  });
});

describe("a person's command still runs model tools through host primitives", () => {
  it('nodwyn capability test runs a capability whose code reads a file through its door', { timeout: 120_000 }, () => {
    box.write('notes.txt', 'first\nsecond\n');
    const firstLine = {
      name: 'first_line',
      description: 'The first line of a workspace file.',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      grants: { read: true },
      code: "export default async (args: { path: string }, nodwyn: { readFile(p: string): Promise<string> }) => String(await nodwyn.readFile(args.path)).split('\\n')[0];",
      examples: [{ args: { path: 'notes.txt' }, expect: 'first' }],
    };
    const admitted = box.run(['run', 'x', '--yes', '--script', box.script([{ toolCalls: [{ name: 'register_capability', args: firstLine }] }, { text: '{{lastToolResult}}' }])]);
    expect(admitted.stdout, admitted.stderr).toContain('Admitted capability');
    const test = box.run(['capability', 'test', 'first_line']);
    expect([test.code, test.stdout], test.stderr).toEqual([0, expect.stringMatching(/^ok {4}example 1\nfirst_line v1: 1 of 1 examples passed/)]);
  });
});
