import { EventLog } from '@nodwyn/kernel';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureTui } from '../../plugins/frontend-tui/bench/tui-measures.js';
import { percentile, type Row } from './stats.js';

/** A tmux pane of the real `nodwyn` (a real terminal), timed from its start until the screen shows `until`. */
function timeToScreen(bin: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }, until: (screen: string) => boolean): number {
  const socket = `nodwyn-bench-${randomBytes(4).toString('hex')}`;
  const tmux = (more: readonly string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...more], { encoding: 'utf8' });
  const env = Object.entries(options.env).flatMap(([k, v]) => (v === undefined ? [] : ['-e', `${k}=${v}`]));
  const command = [process.execPath, bin, ...args].map((p) => `'${p}'`).join(' ');
  const started = performance.now();
  tmux(['new-session', '-d', '-s', 'b', '-x', '100', '-y', '30', '-c', options.cwd, ...env, command]);
  try {
    for (;;) {
      if (until(tmux(['capture-pane', '-p', '-t', 'b']))) return performance.now() - started;
      if (performance.now() - started > 20_000) throw new Error(`tui bench: nodwyn ${args.join(' ')} never showed its frame:\n${tmux(['capture-pane', '-p', '-t', 'b'])}`);
    }
  } finally {
    tmux(['kill-server']);
  }
}

/** A workspace whose latest session holds about `mb` MB of history, ending with a known answer. */
function longSession(dir: string, mb: number): { home: string; workspace: string; last: string } {
  const home = join(dir, 'tui-home');
  const workspace = join(dir, 'tui-workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const script = join(dir, 'tui-script.json');
  writeFileSync(script, JSON.stringify({ replies: [{ text: 'hi' }] }));
  writeFileSync(join(home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
  const log = EventLog.open({ path: join(home, 'nodwyn.db'), keyPath: join(home, 'log.key') });
  const session = 's-bench-long';
  const last = 'The last answer of the long session.';
  try {
    log.append(session, { type: 'session.created', actor: 'kernel', payload: { workspace } });
    const answer = 'lorem ipsum dolor sit amet '.repeat(38);
    const round = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? { type: 'message.user', actor: 'user', payload: { text: `question ${i}` } } : { type: 'message.assistant', actor: 'model', payload: { text: answer, tool_calls: [], stop_reason: 'end_turn', provider: 'bench' } }));
    const size = () => statSync(join(home, 'nodwyn.db')).size + (statSync(join(home, 'nodwyn.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
    while (size() < mb * 1024 * 1024) log.appendBatch(session, round);
    log.append(session, { type: 'message.user', actor: 'user', payload: { text: 'one more question' } });
    log.append(session, { type: 'message.assistant', actor: 'model', payload: { text: last, tool_calls: [], stop_reason: 'end_turn', provider: 'bench' } });
  } finally {
    log.close();
  }
  return { home, workspace, last };
}

/** Issue 12's figures: the terminal front end, as a person starts it (tmux) and in its own process. */
export async function benchTui(root: string, dir: string): Promise<Row[]> {
  const bin = join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs');
  const { home, workspace, last } = longSession(dir, 25);
  const options = { cwd: workspace, env: { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: home, TERM: 'xterm-256color' } };
  const ready = (screen: string) => screen.includes('Ask anything');
  timeToScreen(bin, [], options, ready);
  const starts = Array.from({ length: 7 }, () => timeToScreen(bin, [], options, ready));
  const continues = Array.from({ length: 5 }, () => timeToScreen(bin, ['-c'], options, (screen) => ready(screen) && screen.includes(last)));
  const own = await measureTui();
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  return [
    { name: 'nodwyn -c on a 25 MB session, to the first full frame', value: `${percentile(continues, 50).toFixed(0)} ms`, target: '≤ 500 ms', ok: percentile(continues, 50) <= 500, note: 'median of 5: the real binary in tmux, from start to the screen showing the last answer and the input' },
    { name: 'TUI start to an input prompt, no session', value: `${percentile(starts, 50).toFixed(0)} ms`, target: '≤ 300 ms', ok: percentile(starts, 50) <= 300, note: `median of 7, real binary in tmux; ${ms(own.startMs)} of it in the TUI itself` },
    { name: 'keystroke to echo while 1,000 deltas/s stream in', value: `${ms(own.echo.p50)} / ${ms(own.echo.p99)}`, target: '≤ 16 / ≤ 50 ms', ok: own.echo.p50 <= 16 && own.echo.p99 <= 50, note: 'p50 / p99 of 100 keys, TUI in-process on a timed terminal' },
    { name: 'render work per delta, 1k vs 100k finished items', value: `${ms(own.delta1k.p50)} vs ${ms(own.delta100k.p50)}`, target: 'independent', ok: own.delta100k.p50 <= own.delta1k.p50 * 1.5 + 1, note: `p50; p99 ${ms(own.delta1k.p99)} vs ${ms(own.delta100k.p99)}` },
    { name: 'first frame of a continued tail (TUI part)', value: ms(own.firstFrameWarmMs), target: '', ok: undefined, note: `${own.tailMb.toFixed(1)} MB, ${own.tailEvents} events; ${ms(own.firstFrameColdMs)} cold` },
  ];
}
