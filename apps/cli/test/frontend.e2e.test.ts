import { connectDaemon } from '@nodwyn/client/node';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

let box: CliSandbox;
const children: ChildProcess[] = [];
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  box.remove();
});

/** Whether this tree has the terminal front end's package (it is optional in the default distribution). */

/**
 * A front-end plugin that writes down how it was started (its args, workspace, whether it has a terminal)
 * to $PROBE_OUT and returns 7. Given no session to open, it starts one and prompts it; with PROBE_MODE=wait
 * it leaves that prompt running and waits for its signal to abort, then returns 130.
 */
const PROBE = `import { writeFileSync } from 'node:fs';
const record = (value) => writeFileSync(process.env.PROBE_OUT, JSON.stringify(value));
const manifest = { name: 'frontend-probe', version: '1.0.0', apiVersion: '^0.1.0', provides: ['frontend:probe'] };
export default { manifest, register(ctx) { ctx.frontends.register({ id: 'probe', description: 'Writes down how it was started.', async start({ client, workspace, args, signal }) {
  const seen = { args, workspace, terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY), agent: client.agent.agentInfo?.name, sessions: (await client.listSessions()).map((s) => s.sessionId) };
  if (args.includes('--session') || args.includes('--pick')) { record(seen); return 7; }
  const { sessionId } = await client.newSession(workspace);
  if (process.env.PROBE_MODE === 'wait') {
    void client.prompt(sessionId, 'run the sleeper').catch(() => undefined);
    record({ ...seen, session: sessionId });
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 130;
  }
  const { stopReason } = await client.prompt(sessionId, 'hello from the probe');
  record({ ...seen, session: sessionId, stopReason });
  return 7;
} }); } };
`;

interface Probe {
  args: string[];
  workspace: string;
  terminal: boolean;
  agent: string;
  sessions: string[];
  session?: string;
  stopReason?: string;
}

/** Installs the probe as the distribution's front end, with the scripted provider playing `replies`. */
function useProbe(replies: unknown[] = [{ text: 'Hello, probe.' }], extraConfig = ''): { env: NodeJS.ProcessEnv; seen: () => Probe } {
  const dir = join(box.home, 'node_modules', 'frontend-probe');
  box.write(join(dir, 'package.json'), JSON.stringify({ name: 'frontend-probe', version: '1.0.0', type: 'module', main: 'index.js' }));
  box.write(join(dir, 'index.js'), PROBE);
  const config = ['[distribution]', 'frontend = "probe"', '[[distribution.plugins]]', 'package = "frontend-probe"', 'range = "^1.0.0"'];
  config.push('[provider]', 'default = "scripted"', '[provider.scripted]', `script = "${box.script(replies)}"`, extraConfig);
  box.write(join(box.home, 'config.toml'), `${config.join('\n')}\n`);
  box.approve('frontend-probe');
  const out = join(box.root, 'probe.json');
  return { env: { PROBE_OUT: out }, seen: () => JSON.parse(readFileSync(out, 'utf8')) as Probe };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts `nodwyn serve --port 0` and resolves with its pid once it listens. */
async function serve(): Promise<number> {
  const daemon = box.start(['serve', '--port', '0']);
  children.push(daemon);
  let stdout = '';
  daemon.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  await until(() => stdout.includes('ws://'), 'nodwyn serve to listen');
  return daemon.pid!;
}

describe('nodwyn in a terminal starts the front end', () => {
  it('starts the default front end on a new session in the real working folder, served in this process, and exits with its code', async () => {
    const probe = useProbe();
    const link = join(box.root, 'link');
    symlinkSync(box.workspace, link);
    const run = box.inTerminal([], probe.env, link);
    expect(await run.exited, run.output()).toBe(7);
    const seen = probe.seen();
    expect(seen).toMatchObject({ args: [], workspace: box.workspace, terminal: true, agent: 'nodwyn', sessions: [], stopReason: 'end_turn' });
    const events = box.events(seen.session!);
    // Served in this process: the turn ran in nodwyn's own process, and ended before it exited.
    const started = events.find((e) => e.type === 'turn.started')!;
    expect(alive(started.payload.pid as number)).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['session.created', 'session.titled', 'message.user', 'turn.started', 'context.added', 'context.added', 'message.assistant', 'turn.ended']);
    expect(box.run(['log', 'verify']).code).toBe(0);
  });

  it('prints the help and exits 2 without a terminal, starting nothing', () => {
    const probe = useProbe();
    const out = box.run([], undefined, box.workspace, probe.env);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('Usage: nodwyn [options] [command]');
    expect(existsSync(probe.env.PROBE_OUT!)).toBe(false);
  });

  it('says no front end is available when the distribution names one no plugin provides (FRONTEND_NOT_FOUND)', async () => {
    box.write(join(box.home, 'config.toml'), '[distribution]\nfrontend = "nope"\n');
    const run = box.inTerminal([]);
    expect(await run.exited).toBe(3);
    const output = run.output();
    expect(output).toContain('error NOT_FOUND FRONTEND_NOT_FOUND');
    expect(output).toContain('No front end "nope" is available');
    expect(output).toContain('[distribution] frontend');
    expect(output).toContain('nodwyn plugins');
  });

  it('says so when the terminal front end is disabled, naming the plugin and why', async () => {
    writeFileSync(join(box.home, 'config.toml'), '[distribution]\ndisabled = ["@nodwyn/plugin-frontend-tui"]\n');
    const run = box.inTerminal([]);
    expect(await run.exited).toBe(3);
    expect(run.output()).toContain('FRONTEND_NOT_FOUND');
    expect(run.output()).toContain('@nodwyn/plugin-frontend-tui');
  });
});

describe('nodwyn -c and --resume', () => {
  it("-c opens this folder's latest session, not a later one elsewhere, and a new one with a note when there is none", () => {
    const probe = useProbe();
    const first = box.run(['-c'], undefined, box.workspace, probe.env);
    expect(first.code, first.stderr).toBe(7);
    expect(first.stderr).toContain(`nodwyn: no earlier session in ${box.workspace}; starting a new one`);
    const mine = probe.seen().session!;
    const elsewhere = join(box.root, 'elsewhere');
    box.write(join(elsewhere, 'x.txt'), 'x');
    expect(box.run(['run', 'over there', '--script', box.script([{ text: 'ok' }])], undefined, elsewhere).code).toBe(0);
    const again = box.run(['--continue'], undefined, box.workspace, probe.env);
    expect(again.code, again.stderr).toBe(7);
    expect(probe.seen()).toMatchObject({ args: ['--session', mine], workspace: box.workspace, terminal: false });
  });

  it('--resume ID opens that session, --resume alone asks the front end to pick, and an unknown id is SESSION_NOT_FOUND', () => {
    const probe = useProbe();
    expect(box.run(['run', 'first', '--script', box.script([{ text: 'ok' }])]).code).toBe(0);
    const [session] = box.sessions();
    expect(box.run(['--resume', session!.id], undefined, box.workspace, probe.env).code).toBe(7);
    expect(probe.seen().args).toEqual(['--session', session!.id]);
    expect(box.run(['--resume'], undefined, box.workspace, probe.env).code).toBe(7);
    expect(probe.seen().args).toEqual(['--pick']);
    const unknown = box.run(['--resume', 's-nope-000000'], undefined, box.workspace, probe.env);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('NOT_FOUND SESSION_NOT_FOUND');
    expect(box.run(['-c', '--resume'], undefined, box.workspace, probe.env).code).toBe(2);
  });

  it('ends the front end on SIGTERM; the turn it left running ends cancelled, logged, and its tool is killed', async () => {
    const pidFile = join(box.root, 'sleeper.pid');
    const sleeper = box.write(join(box.root, 'sleeper.cjs'), `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 30000);\n`);
    const probe = useProbe([{ toolCalls: [{ name: 'shell', args: { command: `node ${sleeper}` } }] }, { text: 'never' }], '[tools.shell]\nallow = ["node *"]');
    const child = box.start(['-c'], { ...probe.env, PROBE_MODE: 'wait' });
    children.push(child);
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 'the tool to start');
    const toolPid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGTERM');
    expect(await closed).toBe(130);
    await until(() => !alive(toolPid), 'the tool process to end');
    const end = box.events(probe.seen().session!).at(-1)!;
    expect([end.type, end.payload.reason]).toEqual(['turn.ended', 'cancelled']);
    expect(box.run(['log', 'verify']).code).toBe(0);
  });
});

describe('with a daemon, and nodwyn attach', () => {
  it('attach needs a running daemon: DAEMON_NOT_RUNNING, exit 1, naming nodwyn serve', () => {
    const probe = useProbe();
    const out = box.run(['attach'], undefined, box.workspace, probe.env);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('NOT_FOUND DAEMON_NOT_RUNNING');
    expect(out.stderr).toContain('nodwyn serve');
    expect(existsSync(probe.env.PROBE_OUT!)).toBe(false);
  });

  it('nodwyn connects to the daemon of this NODWYN_HOME when one runs, so the session lives there', async () => {
    const probe = useProbe();
    const daemonPid = await serve();
    const run = box.inTerminal([], probe.env);
    expect(await run.exited, run.output()).toBe(7);
    const seen = probe.seen();
    expect(seen).toMatchObject({ args: ['--attached'], terminal: true, stopReason: 'end_turn' });
    const started = box.events(seen.session!).find((e) => e.type === 'turn.started')!;
    expect(started.payload.pid).toBe(daemonPid);
  });

  it('attach joins the session running now, else the one active last, or the one named, with --attached', async () => {
    const pidFile = join(box.root, 'sleeper.pid');
    const sleeper = box.write(join(box.root, 'sleeper.cjs'), `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 30000);\n`);
    const probe = useProbe([{ toolCalls: [{ name: 'shell', args: { command: `node ${sleeper}` } }] }, { text: 'done' }], '[tools.shell]\nallow = ["node *"]');
    await serve();
    const client = await connectDaemon({ home: box.home, clientInfo: { name: 'test', version: '1' }, reconnect: false });
    try {
      const running = (await client.newSession(box.workspace)).sessionId;
      const prompt = client.prompt(running, 'sleep').catch(() => undefined);
      await until(() => existsSync(pidFile), 'the tool to run');
      // Active after the running one: still, the running one is the one to join.
      await client.newSession(box.workspace);
      const joined = box.run(['attach'], undefined, box.workspace, probe.env);
      expect(joined.code, joined.stderr).toBe(7);
      expect(joined.stderr).toContain(`nodwyn: attaching to ${running} (running: sleep)`);
      expect(probe.seen().args).toEqual(['--session', running, '--attached']);
      await client.cancel(running);
      await prompt;
      const latest = (await client.newSession(box.workspace)).sessionId;
      expect(box.run(['attach'], undefined, box.workspace, probe.env).code).toBe(7);
      expect(probe.seen().args).toEqual(['--session', latest, '--attached']);
      expect(box.run(['attach', '--session', running], undefined, box.workspace, probe.env).code).toBe(7);
      expect(probe.seen().args).toEqual(['--session', running, '--attached']);
      const unknown = box.run(['attach', '--session', 's-nope-000000'], undefined, box.workspace, probe.env);
      expect([unknown.code, unknown.stderr]).toEqual([3, expect.stringContaining('SESSION_NOT_FOUND')]);
    } finally {
      await client.close();
    }
  });
});
