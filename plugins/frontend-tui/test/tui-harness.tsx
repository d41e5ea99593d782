import type { ClientEvent, FrontendClient, PermissionHandler } from '@nodwyn/protocol';
import { recordingFrontendClient, type RecordingFrontendClient } from '@nodwyn/testing';
import { parseTuiArgs } from '../src/session/launch-args.js';
import { TuiController } from '../src/session/tui-controller.js';
import { createTuiStore } from '../src/state/tui-store.js';
import { App } from '../src/view/app.js';
import { renderTui, type RenderedTui } from './render-tui.js';
import { plain, settle } from './terminal-text.js';

/** The App on a fake terminal, driven by a recording client the test speaks for. */
export interface TuiHarness {
  readonly client: RecordingFrontendClient;
  readonly controller: TuiController;
  readonly ui: RenderedTui;
  /** Sends events as the agent would, then lets them be drawn. */
  emit(...events: ClientEvent[]): Promise<void>;
  /** Types each piece (a key or a chunk), letting the screen settle after each. */
  type(...keys: string[]): Promise<void>;
  /** The last frame without colour codes. */
  frame(): string;
  /** Waits until the last frame (without colour) satisfies `test`, or fails after a second. */
  until(test: (frame: string) => boolean): Promise<void>;
  /** The permission handler the TUI registered. */
  permission(): PermissionHandler;
  close(): Promise<void>;
}

/** Starts the App with `args` over a recording client (some of whose answers `answers` replaces). */
export async function startTui(
  options: { args?: string[]; columns?: number; rows?: number; color?: boolean; answers?: Partial<FrontendClient> } = {},
): Promise<TuiHarness> {
  const recording = recordingFrontendClient();
  const client = Object.assign(recording, options.answers ?? {}) as RecordingFrontendClient;
  const controller = new TuiController({ client, workspace: '/work/project', store: createTuiStore(), frameMs: 1 });
  const args = parseTuiArgs(options.args ?? []);
  const ui = renderTui(<App controller={controller} attached={args.attached} />, options);
  controller.start(args);
  await settle();
  return {
    client,
    controller,
    ui,
    async emit(...events) {
      for (const event of events) client.emit(event);
      await settle();
    },
    async type(...keys) {
      for (const key of keys) {
        ui.stdin.write(key);
        await settle(15);
      }
    },
    frame: () => plain(ui.lastFrame()),
    async until(test) {
      const started = Date.now();
      while (!test(plain(ui.lastFrame()))) {
        if (Date.now() - started > 1000) throw new Error(`the screen never showed what was expected; it shows:\n${plain(ui.lastFrame())}`);
        await settle(5);
      }
    },
    permission() {
      const call = [...client.calls].reverse().find((c) => c.method === 'onPermission' && c.args[0] !== undefined);
      return call!.args[0] as PermissionHandler;
    },
    async close() {
      ui.unmount();
      await controller.dispose();
    },
  };
}
