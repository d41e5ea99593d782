import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, notices } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

const NOTE = 'nodwyn: no terminal; running the prompt once as nodwyn run does\n';

/** The prompts of a session, as logged. */
function prompts(session: string): string[] {
  return box.events(session).filter((e) => e.type === 'message.user').map((e) => String(e.payload.text));
}

describe('nodwyn PROMPT', () => {
  it('without a terminal runs the prompt once as nodwyn run does, after a one-line note', () => {
    const out = box.run(['say hello', '--script', box.script([{ text: 'Hello.' }])]);
    expect([out.code, out.stdout], out.stderr).toEqual([0, 'Hello.\n']);
    const [session] = box.sessions();
    expect(out.stderr).toBe(`${NOTE}session: ${session!.id}\n`);
    expect(prompts(session!.id)).toEqual(['say hello']);
  });

  it("joins unquoted words into one prompt and leaves the options after them to nodwyn run", () => {
    const out = box.run(['explain', 'this', 'folder', '--max-turns', '1', '--script', box.script([{ toolCalls: [{ name: 'list_dir', args: {} }] }, { text: 'never' }])]);
    expect(out.code).toBe(4);
    expect(out.stderr).toContain('BUDGET_TURNS');
    expect(prompts(box.sessions()[0]!.id)).toEqual(['explain this folder']);
  });

  it('never sends one bare word or a mistyped command to a model: unknown command, exit 2', () => {
    const script = box.script([{ text: 'should not run' }]);
    const word = box.run(['frobnicate', '--script', script]);
    expect([word.code, word.stdout]).toEqual([2, '']);
    expect(word.stderr).toBe('error: unknown command \'frobnicate\'\n(To ask it as a prompt: nodwyn run "frobnicate")\n');
    const typo = box.run(['lgo', 'list']);
    expect([typo.code, typo.stderr]).toEqual([2, "error: unknown command 'lgo'\n(Did you mean log?)\n"]);
    const close = box.run(['runn', 'the tests', '--script', script]);
    expect([close.code, close.stderr]).toEqual([2, "error: unknown command 'runn'\n(Did you mean run?)\n"]);
    expect(box.sessions()).toEqual([]);
  });

  it('still runs a plugin command whose name is not built in', () => {
    const out = box.run(['secret', 'list']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).not.toContain('no terminal');
  });

  it('in a terminal runs it the same way, without the note', async () => {
    const run = box.inTerminal(['say hello', '--script', box.script([{ text: 'Hello from the script.' }])]);
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('Hello from the script.');
    expect(run.output()).not.toContain('no terminal');
  });
});

describe('nodwyn run reads the prompt from stdin', () => {
  it('for - and for no prompt with stdin piped, dropping the final newline', () => {
    const script = box.script([{ text: 'got: {{lastUserMessage}}' }]);
    const dash = box.run(['run', '-', '--script', script], 'from stdin\nsecond line\n');
    expect([dash.code, dash.stdout], dash.stderr).toEqual([0, 'got: from stdin\nsecond line\n']);
    const piped = box.run(['run', '--script', script], 'piped prompt\n');
    expect([piped.code, piped.stdout], piped.stderr).toEqual([0, 'got: piped prompt\n']);
  });

  it('takes empty stdin as no prompt: RUN_PROMPT_MISSING, nothing logged', () => {
    const out = box.run(['run', '-', '--script', box.script([{ text: 'x' }])], '\n');
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('VALIDATION_FAILED RUN_PROMPT_MISSING');
    expect(out.stderr).toContain('nodwyn run - < prompt.txt');
    expect(box.sessions()).toEqual([]);
  });

  it('refuses a prompt over 1 MiB on stdin with an envelope, before anything is logged', () => {
    const out = box.run(['run', '--script', box.script([{ text: 'x' }])], 'x'.repeat(1024 * 1024 + 1));
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('LIMIT_EXCEEDED RUN_PROMPT_TOO_LARGE');
    expect(box.sessions()).toEqual([]);
    const exactly = box.run(['run', '--script', box.script([{ text: 'fits' }])], 'y'.repeat(1024 * 1024));
    expect([exactly.code, exactly.stdout], exactly.stderr).toEqual([0, 'fits\n']);
  });
});

describe('nodwyn run without a provider', () => {
  it('is PROVIDER_NOT_CONFIGURED (exit 3) naming the commands that fix it, before anything is logged', () => {
    const out = box.run(['run', 'hi']);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('error PRECONDITION_FAILED PROVIDER_NOT_CONFIGURED');
    for (const fix of ['nodwyn setup --provider anthropic', 'nodwyn secret add anthropic', 'nodwyn bind add control-plane', '[provider] default = "anthropic"', 'nodwyn run --script FILE']) {
      expect(out.stderr).toContain(fix);
    }
    const json = box.run(['run', 'hi', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr)).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'PROVIDER_NOT_CONFIGURED', failed_parameter: 'provider' });
    expect(box.sessions()).toEqual([]);
  });

  it('takes --script alone as the scripted provider, and [provider] default without a flag', () => {
    expect(box.run(['run', 'hi', '--script', box.script([{ text: 'scripted' }])]).stdout).toBe('scripted\n');
    box.write(`${box.home}/config.toml`, `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${box.script([{ text: 'from config' }])}"\n`);
    expect(box.run(['run', 'hi']).stdout).toBe('from config\n');
  });
});

describe('sessions a run leaves', () => {
  it('ends every run with its session id on stderr; --json keeps stderr for notices', () => {
    const script = box.script([{ text: 'ok' }]);
    const out = box.run(['run', 'hi', '--script', script]);
    expect(out.stderr).toBe(`session: ${box.sessions()[0]!.id}\n`);
    const json = box.run(['run', 'hi', '--json', '--script', script]);
    expect([json.code, json.stderr]).toEqual([0, '']);
    const stopped = box.run(['run', 'hi', '--script', box.script([{ toolCalls: [{ name: 'list_dir', args: {} }] }])]);
    expect(stopped.code).toBe(3);
    expect(notices(stopped.stderr)).toContain('SCRIPT_EXHAUSTED');
    expect(stopped.stderr).toMatch(/\nsession: s-\S+\n$/);
  });

  it('titles a new session from its first prompt, keeps the title when continued, and lists it', () => {
    const script = box.script([{ text: 'ok' }]);
    expect(box.run(['run', '  Fix the   parser\nthen the tests', '--script', script]).code).toBe(0);
    const [session] = box.sessions() as { id: string; title?: string }[];
    expect(session!.title).toBe('Fix the parser');
    expect(box.run(['run', 'and the docs', '--session', session!.id, '--script', script]).code).toBe(0);
    expect((box.sessions() as { title?: string }[]).map((s) => s.title)).toEqual(['Fix the parser']);
    expect(box.events(session!.id).filter((e) => e.type === 'session.titled').map((e) => [e.actor, e.payload.title])).toEqual([['user', 'Fix the parser']]);
    expect(box.run(['log', 'list']).stdout).toMatch(/^SESSION\s+UPDATED\s+EVENTS\s+ORIGIN\s+WORKSPACE\s+TITLE\n\S+\s+\S+\s+\d+\s+\S+\s+Fix the parser\n$/);
  });
});
