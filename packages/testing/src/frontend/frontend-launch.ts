import type { FrontendLaunch } from '@nodwyn/plugin-api';
import { recordingFrontendClient, type RecordingFrontendClient } from './recording-frontend-client.js';

/** A launch for starting a front end in a test, with the recording client behind it and a way to abort it. */
export interface TestFrontendLaunch {
  readonly launch: FrontendLaunch;
  readonly client: RecordingFrontendClient;
  /** Aborts `launch.signal`, as Ctrl-C or SIGTERM would in the app. */
  abort(): void;
}

/** A `FrontendLaunch` over a fresh `recordingFrontendClient()`. */
export function frontendLaunch(options: { readonly workspace: string; readonly args?: readonly string[] }): TestFrontendLaunch {
  const client = recordingFrontendClient();
  const controller = new AbortController();
  return {
    launch: { client, workspace: options.workspace, args: options.args ?? [], signal: controller.signal },
    client,
    abort: () => controller.abort(),
  };
}
