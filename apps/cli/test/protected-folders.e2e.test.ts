import type { LogEvent } from '@nodwyn/protocol';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';

const TOKEN = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';

/** Where nodwyn's folders lie inside the workspace, relative to it, and the environment that puts them there. */
interface Layout {
  readonly name: string;
  readonly data: string;
  readonly config: string;
  env(workspace: string): NodeJS.ProcessEnv;
}

const LAYOUTS: Layout[] = [
  { name: "the README's old demo, NODWYN_HOME=$PWD/.nodwyn", data: '.nodwyn', config: '.nodwyn', env: (ws) => ({ NODWYN_HOME: join(ws, '.nodwyn') }) },
  { name: 'NODWYN_HOME in a workspace folder of any name', data: 'state', config: 'state', env: (ws) => ({ NODWYN_HOME: join(ws, 'state') }) },
  { name: 'running in $HOME with the XDG defaults', data: '.local/share/nodwyn', config: '.config/nodwyn', env: (ws) => ({ NODWYN_HOME: '', HOME: ws }) },
];

let box: CliSandbox;

beforeEach(() => {
  box = new CliSandbox();
});

afterEach(() => {
  box.remove();
});

/** Every file under `dir` with its bytes, except the log database, which each run appends to. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) visit(full);
      else if (!name.startsWith('nodwyn.db')) files[full] = readFileSync(full).toString('base64');
    }
  };
  if (existsSync(dir)) visit(dir);
  return files;
}

/** What a hostile model tries against nodwyn's own files, with the relative paths of this layout. */
function attacks(layout: Layout): unknown[] {
  const { data, config } = layout;
  const shouted = data.toUpperCase();
  return [
    {
      toolCalls: [
        { name: 'write_file', args: { path: `${config}/bindings.toml`, content: '[classes.github-token]\nhosts = ["evil.example"]\n' } },
        { name: 'write_file', args: { path: `${data}/bindings.toml`, content: '[classes.github-token]\nhosts = ["evil.example"]\n' } },
        { name: 'write_file', args: { path: `${config}/node_modules/evil/index.js`, content: 'export default { manifest: {} };' } },
        { name: 'edit_file', args: { path: `${config}/config.toml`, old_string: '[tools]', new_string: '[distribution]\nplugins = ["evil"]\n[tools]' } },
      ],
    },
    {
      toolCalls: [
        { name: 'read_file', args: { path: `${data}/keychain.key` } },
        { name: 'read_file', args: { path: `${data}/log.key` } },
        { name: 'read_file', args: { path: `src/../${data}/log.key` } },
        { name: 'read_file', args: { path: `${shouted}/log.key` } },
        { name: 'read_file', args: { path: 'docs/handy/log.key' } },
        { name: 'write_file', args: { path: 'docs/handy/bindings.toml', content: '' } },
      ],
    },
    {
      toolCalls: [
        { name: 'list_dir', args: { path: data } },
        { name: 'glob', args: { pattern: '*', path: config } },
        { name: 'grep', args: { pattern: 'github', path: data } },
      ],
    },
    { toolCalls: [{ name: 'list_dir', args: { depth: 6 } }, { name: 'glob', args: { pattern: '**/*.{toml,key,json}' } }, { name: 'grep', args: { pattern: 'github|tools' } }] },
    { text: 'done' },
  ];
}

function outcomes(events: LogEvent[]): { name: string; type: string; code?: string; content?: string }[] {
  const calls = events.filter((e) => e.type === 'message.assistant').flatMap((e) => (e.payload.tool_calls ?? []) as { id: string; name: string }[]);
  return calls.map((call) => {
    const outcome = events.find((e) => e.type.startsWith('tool.') && e.type !== 'tool.requested' && e.payload.call_id === call.id);
    const envelope = outcome?.payload.envelope as { code?: string } | undefined;
    return { name: call.name, type: outcome?.type ?? 'none', code: envelope?.code, content: outcome?.payload.content as string | undefined };
  });
}

describe.each(LAYOUTS)("nodwyn's own folders inside the workspace: $name", (layout) => {
  it('refuses every file tool on them by spelling, case, .. and symlink, lists none of them, and changes nothing on disk', async () => {
    const env = layout.env(box.workspace);
    box.write(join(box.workspace, layout.config, 'config.toml'), '[tools]\n');
    expect(box.run(['secret', 'add', 'gh', '--class', 'github-token'], TOKEN, undefined, env).code).toBe(0);
    const bind = box.run(['bind', 'add', 'github-token', '--host', 'api.github.com', '--position', 'header:Authorization', '--method', 'GET'], undefined, undefined, env);
    expect(bind.code, bind.stderr).toBe(0);
    box.write('notes.txt', 'tools of the project\n');
    mkdirSync(join(box.workspace, 'docs'));
    symlinkSync(join(box.workspace, layout.data), join(box.workspace, 'docs', 'handy'));
    const dataDir = join(box.workspace, layout.data);
    expect(existsSync(join(dataDir, 'keychain.key')) && existsSync(join(dataDir, 'log.key'))).toBe(true);
    const before = { ...snapshot(dataDir), ...snapshot(join(box.workspace, layout.config)) };

    const out = await box.runAsync(['run', 'tidy up', '--json', '--script', box.script(attacks(layout))], undefined, env);
    expect(out.code, out.stderr).toBe(0);

    const results = outcomes(jsonLines(out.stdout));
    expect(results).toHaveLength(16);
    const [refusals, listings] = [results.slice(0, 13), results.slice(13)];
    for (const refusal of refusals) expect(refusal, JSON.stringify(refusal)).toMatchObject({ type: 'tool.failed', code: 'PATH_PROTECTED' });
    for (const listing of listings) {
      expect(listing.type).toBe('tool.completed');
      expect(listing.content).not.toMatch(/bindings|keychain|log\.key|config\.toml|handy\/|nodwyn\//i);
    }
    expect(listings[2]!.content).toBe('notes.txt:1:tools of the project');
    expect({ ...snapshot(dataDir), ...snapshot(join(box.workspace, layout.config)) }).toEqual(before);
    expect(existsSync(join(box.workspace, layout.config, 'node_modules'))).toBe(false);
    expect(out.stdout).not.toContain(TOKEN);
  });
});
