import type { DaemonState } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { FakeClock, FakeDaemons, flush } from '../../test/fakes.js';
import { ATTACHED_POLL_MS, DaemonSupervisor, READY_TIMEOUT_MS, RESTART_DELAY_MS } from './daemon-supervisor.js';

function setup(options: { alive?: (pid: number) => boolean } = {}) {
  const clock = new FakeClock();
  const daemons = new FakeDaemons();
  const terminated: number[] = [];
  const supervisor = new DaemonSupervisor({
    home: '/tmp/nodwyn-home',
    spawn: daemons.spawn,
    readServeFile: daemons.readServeFile,
    clock,
    isAlive: options.alive ?? (() => false),
    terminate: (pid) => terminated.push(pid),
  });
  const states: DaemonState[] = [];
  supervisor.onChange((state) => states.push(state));
  return { clock, daemons, supervisor, states, terminated };
}

/** Starts the supervisor and lets its first child come up. */
async function started() {
  const world = setup();
  const start = world.supervisor.start();
  await flush();
  await world.daemons.ready();
  await start;
  return world;
}

describe('DaemonSupervisor', () => {
  it('runs a child and is running once it printed its URL and serve.json names it', async () => {
    const { supervisor, daemons, states } = await started();
    expect(supervisor.state()).toEqual({ state: 'running', pid: daemons.last.pid, crashes: 0 });
    expect(supervisor.endpoint()?.url).toBe(daemons.serveFile?.url);
    expect(states.map((s) => s.state)).toEqual(['starting', 'running']);
  });

  it('attaches to a live daemon named by serve.json instead of starting one', async () => {
    const { supervisor, daemons } = setup({ alive: (pid) => pid === 99 });
    daemons.serveFile = { url: 'ws://127.0.0.1:5000/acp', http: 'http://127.0.0.1:5000/', token: 't', pid: 99 };
    expect(await supervisor.start()).toEqual({ state: 'running', pid: 99, crashes: 0 });
    expect(daemons.children).toHaveLength(0);
  });

  it('restarts a daemon that crashes, after a short pause', async () => {
    const { supervisor, daemons, clock } = await started();
    daemons.last.crash(1, 'boom');
    await flush();
    expect(supervisor.state()).toMatchObject({ state: 'restarting', crashes: 1, lastError: expect.stringContaining('boom') });
    expect(daemons.children).toHaveLength(1);
    await clock.advance(RESTART_DELAY_MS);
    expect(daemons.children).toHaveLength(2);
    await daemons.ready();
    expect(supervisor.state()).toMatchObject({ state: 'running', pid: daemons.last.pid, crashes: 1 });
  });

  it('stops restarting after three crashes within 30 s: crash-loop, with the last stderr as the error', async () => {
    const { supervisor, daemons, clock } = await started();
    for (const [i, gap] of [0, 10_000, 10_000].entries()) {
      await clock.advance(gap);
      daemons.last.crash(1, `crash number ${i + 1}: config.toml: unknown key`);
      await flush();
      if (i < 2) {
        await clock.advance(RESTART_DELAY_MS);
        await daemons.ready();
      }
    }
    expect(supervisor.state()).toEqual({ state: 'crash-loop', crashes: 3, lastError: expect.stringContaining('crash number 3: config.toml: unknown key') });
    await clock.advance(120_000);
    expect(daemons.children).toHaveLength(3);
    expect(supervisor.state().state).toBe('crash-loop');
  });

  it('keeps restarting when three crashes are spread over 40 s', async () => {
    const { supervisor, daemons, clock } = await started();
    for (const gap of [0, 20_000 - RESTART_DELAY_MS, 20_000 - RESTART_DELAY_MS]) {
      await clock.advance(gap);
      daemons.last.crash(1, 'boom');
      await flush();
      await clock.advance(RESTART_DELAY_MS);
      await daemons.ready();
    }
    expect(daemons.children).toHaveLength(4);
    expect(supervisor.state()).toMatchObject({ state: 'running', crashes: 2 });
  });

  it('counts a daemon that exits before it is ready as a crash: three failed starts are a crash loop', async () => {
    const { supervisor, daemons, clock } = setup();
    const start = supervisor.start();
    await flush();
    for (let i = 0; i < 3; i++) {
      daemons.last.crash(2, `bad flag ${i}`);
      await flush();
      if (i < 2) await clock.advance(RESTART_DELAY_MS);
    }
    expect(await start).toMatchObject({ state: 'crash-loop', crashes: 3, lastError: expect.stringContaining('bad flag 2') });
    expect(supervisor.state().lastError).toContain('failed to start (exit code 2)');
  });

  it('stops a child that does not become ready in time and counts it as a crash', async () => {
    const { supervisor, daemons, clock } = setup();
    void supervisor.start();
    await clock.advance(READY_TIMEOUT_MS);
    expect(daemons.children[0]?.stopped).toBe(true);
    expect(supervisor.state()).toMatchObject({ state: 'restarting', crashes: 1, lastError: expect.stringContaining('did not become ready') });
  });

  it("the person's restart ends a crash loop: crashes forgotten, a new daemon runs", async () => {
    const { supervisor, daemons, clock } = await started();
    for (let i = 0; i < 3; i++) {
      daemons.last.crash(1, 'boom');
      await flush();
      if (i < 2) {
        await clock.advance(RESTART_DELAY_MS);
        await daemons.ready();
      }
    }
    expect(supervisor.state().state).toBe('crash-loop');
    const restart = supervisor.restart();
    await flush();
    await daemons.ready();
    expect(await restart).toEqual({ state: 'running', pid: daemons.last.pid, crashes: 0 });
    daemons.last.crash(1, 'again');
    await flush();
    expect(supervisor.state()).toMatchObject({ state: 'restarting', crashes: 1 });
  });

  it('a daemon it stopped on purpose is not a crash', async () => {
    const { supervisor, daemons, clock } = await started();
    const first = daemons.last;
    await supervisor.stop();
    expect(first.stopped).toBe(true);
    await clock.advance(60_000);
    expect(supervisor.state()).toEqual({ state: 'stopped', crashes: 0 });
    expect(daemons.children).toHaveLength(1);
  });

  it('starts its own daemon when the attached one ends', async () => {
    let alive = true;
    const { supervisor, daemons, clock } = setup({ alive: () => alive });
    daemons.serveFile = { url: 'ws://127.0.0.1:5000/acp', http: 'http://127.0.0.1:5000/', token: 't', pid: 99 };
    await supervisor.start();
    alive = false;
    await clock.advance(ATTACHED_POLL_MS + RESTART_DELAY_MS);
    expect(daemons.children).toHaveLength(1);
    await daemons.ready();
    expect(supervisor.state()).toMatchObject({ state: 'running', pid: daemons.last.pid, crashes: 1 });
  });
});
