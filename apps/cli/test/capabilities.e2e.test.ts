import type { LogEvent } from '@nodwyn/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';
import { VERSION } from '../src/version.js';

// Each test starts several real `nodwyn` processes (each bounded at 30 s by CliSandbox); the whole test
// is bounded here, well above what they take on a loaded two-core machine.
const SLOW = { timeout: 120_000 };

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

/** A capability like the one a model writes: two examples, one exact and one predicate. */
const SLUGIFY = {
  name: 'slugify',
  description: 'Turns text into a lowercase URL slug.',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  code: [
    'interface Args { text: string }',
    'export default (args: Args): string =>',
    "  args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');",
  ].join('\n'),
  examples: [
    { args: { text: 'Hello, World!' }, expect: 'hello-world' },
    { args: { text: '  Many   spaces  ' }, check: '(out: string) => !out.includes(" ")' },
  ],
};

/** Version 2: joins with underscores, so which version ran is visible in the output. */
const SLUGIFY_V2 = {
  ...SLUGIFY,
  description: 'Turns text into a lowercase slug joined with underscores.',
  code: "export default (args: { text: string }) => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');",
  examples: [{ args: { text: 'Hello, World!' }, expect: 'hello_world' }],
};

/** Reads a workspace file through the sandbox's door, so it asks for the `read` grant. */
const FIRST_LINE = {
  name: 'first_line',
  description: 'The first line of a workspace file.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  grants: { read: true },
  code: [
    'type Door = { readFile(path: string): string | Promise<string> };',
    "export default async (args: { path: string }, nodwyn: Door) => String(await nodwyn.readFile(args.path)).split('\\n')[0];",
  ].join('\n'),
  examples: [{ args: { path: 'notes.txt' }, expect: 'first' }],
};

type Outcome = { type: string; name: string; content?: string; code?: string; origin?: string };

/** What each tool call of a `--json` run came to, in order; a sandbox's door calls have origin `host`. */
function outcomes(stdout: string): Outcome[] {
  return jsonLines(stdout)
    .filter((e: LogEvent) => e.type === 'tool.completed' || e.type === 'tool.failed' || e.type === 'tool.denied')
    .map((e) => ({
      type: e.type,
      name: String(e.payload.name),
      content: e.payload.content as string | undefined,
      code: (e.payload.envelope as { code?: string } | undefined)?.code,
      origin: e.payload.origin as string | undefined,
    }));
}

/** Runs a scripted session with --json and returns its tool outcomes. */
function session(replies: unknown[], extra: string[] = []): { code: number | null; stderr: string; outcomes: Outcome[] } {
  const out = box.run(['run', 'work', '--json', ...extra, '--script', box.script(replies)]);
  return { code: out.code, stderr: out.stderr, outcomes: outcomes(out.stdout) };
}

/** Registers capabilities through a model run, as a model would, and checks each was admitted. */
function admit(...capabilities: object[]): void {
  const run = session([...capabilities.map((args) => ({ toolCalls: [{ name: 'register_capability', args }] })), { text: 'ok' }]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.outcomes.map((o) => [o.type, o.content?.slice(0, 20)])).toEqual(capabilities.map(() => ['tool.completed', 'Admitted capability ']));
}

/** `nodwyn capability ARGS…`. */
function capability(...args: string[]) {
  return box.run(['capability', ...args]);
}

describe('self-extension through the nodwyn command', () => {
  it('lists (empty), registers with two examples and executes in one run; the next process calls the capability by its own name', SLOW, () => {
    const first = session([
      { toolCalls: [{ name: 'list_capabilities', args: {} }] },
      { toolCalls: [{ name: 'register_capability', args: SLUGIFY }] },
      { toolCalls: [{ name: 'execute_capability', args: { name: 'slugify', args: { text: 'Self Extension' } } }] },
      { text: 'done' },
    ]);
    expect(first.code, first.stderr).toBe(0);
    const [listed, registered, executed] = first.outcomes;
    expect(listed).toMatchObject({ type: 'tool.completed', name: 'list_capabilities', content: expect.stringMatching(/No capabilities are registered yet/) });
    expect(registered).toMatchObject({ type: 'tool.completed', content: expect.stringMatching(/Admitted capability slugify version 1 .*2 examples passed/) });
    expect(executed).toMatchObject({ type: 'tool.completed', name: 'execute_capability', content: 'self-extension' });

    // A new process is a new session: the capability can only come from the registry in the database.
    const tools = JSON.parse(box.run(['tools', '--json']).stdout) as { name: string; tier: string }[];
    expect(tools.find((t) => t.name === 'slugify')).toMatchObject({ tier: 'read' });
    const second = box.run(['run', 'slug it', '--script', box.script([{ toolCalls: [{ name: 'slugify', args: { text: 'Next Process' } }] }, { text: '{{lastToolResult}}' }])]);
    expect([second.code, second.stdout], second.stderr).toEqual([0, 'next-process\n']);
    expect(box.sessions()).toHaveLength(2);
    expect(box.run(['log', 'verify']).code).toBe(0);
  });

  it('refuses a registration that asks to read files with CONFIRMATION_REQUIRED off a terminal, and admits it with --yes', SLOW, () => {
    box.write('notes.txt', 'first\nsecond\n');
    const script = [{ toolCalls: [{ name: 'register_capability', args: FIRST_LINE }] }, { toolCalls: [{ name: 'first_line', args: { path: 'notes.txt' } }] }, { text: 'ok' }];
    // spawnSync gives nodwyn pipes, not a terminal, so nobody can answer the question.
    const refused = session(script);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.outcomes.map((o) => [o.type, o.name, o.code])).toEqual([
      ['tool.denied', 'register_capability', 'CONFIRMATION_REQUIRED'],
      ['tool.denied', 'first_line', 'TOOL_UNKNOWN'],
    ]);
    expect(capability('list').stdout).toBe('No capabilities are registered.\n');

    const granted = session(script, ['--yes']);
    expect(granted.code, granted.stderr).toBe(0);
    // The sandbox reads through the door, which is read_file through the guard, logged like the model's
    // calls: once for the example at admission, once for the run.
    expect(granted.outcomes.map((o) => [o.type, o.name, o.origin])).toEqual([
      ['tool.completed', 'read_file', 'host'],
      ['tool.completed', 'register_capability', undefined],
      ['tool.completed', 'read_file', 'host'],
      ['tool.completed', 'first_line', undefined],
    ]);
    expect(granted.outcomes[3]!.content).toBe('first');
    expect(capability('list').stdout).toMatch(/first_line\s+v1\s+active\s+quickjs\s+read\s/);
  });

  it('keeps asking when a trusted repository sets confirm = "never" for capabilities', SLOW, () => {
    box.write('notes.txt', 'first\n');
    box.write('.nodwyn/config.toml', '[plugins."@nodwyn/plugin-capabilities"]\nconfirm = "never"\n');
    expect(box.run(['trust', '--yes']).code).toBe(0);
    const out = box.run(['run', 'work', '--json', '--script', box.script([{ toolCalls: [{ name: 'register_capability', args: FIRST_LINE }] }, { text: 'ok' }])]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('ignoring plugins."@nodwyn/plugin-capabilities".confirm in .nodwyn/config.toml (only your own config may set them)');
    expect(outcomes(out.stdout).map((o) => [o.name, o.code])).toEqual([['register_capability', 'CONFIRMATION_REQUIRED']]);
  });

  it('runs capabilities on the deno and node runners from the bundle', SLOW, () => {
    const shout = {
      name: 'shout',
      description: 'Upper-cases text, in Deno.',
      runner: 'deno',
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      code: "export default (args: { text: string }): string => `${args.text.toUpperCase()} (${typeof Deno})`;",
      examples: [{ args: { text: 'hi' }, expect: 'HI (object)' }],
    };
    // The node runner refuses runs with an open network unless hosts are granted; this one is granted
    // loopback only and never uses it.
    const digest = {
      name: 'digest',
      description: 'The first 8 hex digits of the sha256 of text, with Node APIs.',
      runner: 'node',
      grants: { net: ['127.0.0.1'] },
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      code: "import { createHash } from 'node:crypto';\nexport default (args: { text: string }): string => createHash('sha256').update(args.text).digest('hex').slice(0, 8);",
      examples: [{ args: { text: 'a' }, expect: 'ca978112' }],
    };
    // Another runner than QuickJS needs a person's confirmation; --yes gives it.
    const run = session(
      [
        { toolCalls: [{ name: 'register_capability', args: shout }] },
        { toolCalls: [{ name: 'register_capability', args: digest }] },
        { toolCalls: [{ name: 'execute_capability', args: { name: 'shout', args: { text: 'deno' } } }] },
        { toolCalls: [{ name: 'execute_capability', args: { name: 'digest', args: { text: 'abc' } } }] },
        { text: 'ok' },
      ],
      ['--yes'],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.outcomes.map((o) => o.type)).toEqual(['tool.completed', 'tool.completed', 'tool.completed', 'tool.completed']);
    expect(run.outcomes.slice(2).map((o) => o.content)).toEqual(['DENO (object)', 'ba7816bf']);
  });
});

describe('nodwyn capability', () => {
  it('lists, shows the current and an earlier version, prints the history, and rolls back', SLOW, () => {
    admit(SLUGIFY, SLUGIFY_V2);
    const list = capability('list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+VERSION\s+STATUS\s+RUNNER\s+GRANTS\s+DESCRIPTION\nslugify\s+v2\s+active\s+quickjs\s+none\s+Turns text into a lowercase slug joined/);

    const current = capability('show', 'slugify');
    expect(current.code, current.stderr).toBe(0);
    expect(current.stdout).toMatch(/^slugify v2 \(current\): active\n/);
    expect(current.stdout).toContain(SLUGIFY_V2.code);
    // `--version` after the command is the command's option, not the root's: it shows version 1.
    const earlier = capability('show', 'slugify', '--version', '1');
    expect(earlier.code, earlier.stderr).toBe(0);
    expect(earlier.stdout).not.toBe(`${VERSION}\n`);
    expect(earlier.stdout).toMatch(/^slugify v1: active\n/);
    expect(earlier.stdout).toContain(SLUGIFY.code);
    expect(JSON.parse(capability('show', 'slugify', '--version', '1', '--json').stdout)).toMatchObject({ name: 'slugify', version: 1, current: false });
    const missing = capability('show', 'slugify', '--version', '7');
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('slugify has versions 1 to 2; there is no version 7')]);

    const history = capability('history', 'slugify');
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout.split('\n').slice(1, 3)).toEqual([expect.stringMatching(/^ {2}v1\s+active\s/), expect.stringMatching(/^\* v2\s+active\s/)]);

    const rollback = capability('rollback', 'slugify', '--to', '1');
    expect([rollback.code, rollback.stdout]).toEqual([0, 'slugify: version 1 is current (active).\n']);
    const after = box.run(['run', 'x', '--script', box.script([{ toolCalls: [{ name: 'slugify', args: { text: 'A B' } }] }, { text: '{{lastToolResult}}' }])]);
    expect([after.code, after.stdout], after.stderr).toEqual([0, 'a-b\n']);
    expect(capability('history', 'slugify').stdout).toMatch(/\* v1\s+active/);
  });

  it('tests the current version\'s examples again and reports each', SLOW, () => {
    admit(SLUGIFY);
    const test = capability('test', 'slugify');
    expect(test.code, test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^ok {4}example 1\nok {4}example 2\nslugify v1: 2 of 2 examples passed \(session s-/);
  });

  it('disable and rm stop a capability from running (as a tool and through execute_capability); rollback restores it', SLOW, () => {
    admit(SLUGIFY);
    const disable = capability('disable', 'slugify');
    expect([disable.code, disable.stdout], disable.stderr).toEqual([0, expect.stringMatching(/^slugify: disabled as version 2; it no longer runs\./)]);
    const calls = [
      { toolCalls: [{ name: 'slugify', args: { text: 'A B' } }] },
      { toolCalls: [{ name: 'execute_capability', args: { name: 'slugify', args: { text: 'A B' } } }] },
      { text: 'ok' },
    ];
    const disabled = session(calls);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.outcomes.map((o) => [o.name, o.code])).toEqual([
      ['slugify', 'TOOL_UNKNOWN'],
      ['execute_capability', 'CAPABILITY_DISABLED'],
    ]);
    expect(capability('test', 'slugify')).toMatchObject({ code: 1, stderr: expect.stringContaining('CAPABILITY_DISABLED') });

    const rm = capability('rm', 'slugify');
    expect([rm.code, rm.stdout], rm.stderr).toEqual([0, expect.stringMatching(/^slugify: removed as version 3; it no longer runs\./)]);
    expect(capability('list').stdout).toMatch(/slugify\s+v3\s+removed\s/);
    expect(session(calls).outcomes.map((o) => o.code)).toEqual(['TOOL_UNKNOWN', 'CAPABILITY_DISABLED']);

    expect(capability('rollback', 'slugify', '--to', '1').code).toBe(0);
    const restored = session(calls);
    expect(restored.outcomes.map((o) => [o.type, o.content])).toEqual([
      ['tool.completed', 'a-b'],
      ['tool.completed', 'a-b'],
    ]);
    // Every change a person made is logged in a session of its own.
    const titles = (JSON.parse(box.run(['log', 'list', '--json']).stdout) as { title?: string }[]).map((s) => s.title).filter(Boolean);
    for (const change of ['capability disable slugify', 'capability rm slugify', 'capability rollback slugify --to 1']) {
      expect(titles).toContainEqual(expect.stringContaining(change));
    }
  });

  it('exits 2 with the usage on a usage error, and 3 for a name that does not exist', SLOW, () => {
    const usage = [
      [],
      ['frobnicate'],
      ['list', 'extra'],
      ['show'],
      ['show', 'a', 'b'],
      ['show', 'slugify', '--version', 'one'],
      ['show', 'slugify', '--version'],
      ['rollback', 'slugify'],
      ['rollback', 'slugify', '--to', '0'],
      ['test', 'slugify', '--no-such-option'],
    ];
    for (const args of usage) {
      const out = capability(...args);
      expect([args, out.code]).toEqual([args, 2]);
      expect(out.stdout).toBe('');
      expect(out.stderr).not.toBe('');
    }
    expect(capability('rollback', 'slugify').stderr).toContain('usage: nodwyn capability list [--json]');
    const unknown = capability('show', 'nothing_here');
    expect([unknown.code, unknown.stderr]).toEqual([3, expect.stringContaining('CAPABILITY_NOT_FOUND')]);
  });
});

describe('root options and command options', () => {
  it('answers --version and -V only before a command name; after it they belong to the command', () => {
    expect(box.run(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(box.run(['-V'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    // run has no --version option of its own, so it is an unknown option there, not the root's flag.
    const run = box.run(['run', 'x', '--version']);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toContain("unknown option '--version'");
    const help = box.run(['log', 'list', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: nodwyn log list')]);
  });
});
