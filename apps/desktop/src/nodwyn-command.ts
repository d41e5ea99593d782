import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NodwynCommand } from '@nodwyn/plugin-frontend-electron/main';

/** Where the desktop app is running from. */
export interface AppPlace {
  readonly env: NodeJS.ProcessEnv;
  /** Electron's own binary (`process.execPath`). */
  readonly execPath: string;
  /** The packaged app's resources folder, when packaged. */
  readonly resourcesPath: string | undefined;
}

/**
 * How the app runs `nodwyn`: `$NODWYN_CLI` (a script, run by Electron's Node, or an executable) when set; else the CLI
 * bundle electron-builder put in the resources (`nodwyn/nodwyn.mjs`, see electron-builder.yml), run by
 * Electron's own Node (`ELECTRON_RUN_AS_NODE=1`); else `nodwyn` on the PATH.
 */
export function nodwynCommand(place: AppPlace): NodwynCommand {
  const asNode = (script: string): NodwynCommand => ({ command: place.execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: '1' } });
  const configured = place.env.NODWYN_CLI;
  if (configured) return /\.[cm]?js$/.test(configured) ? asNode(configured) : { command: configured, args: [] };
  if (place.resourcesPath) {
    const bundled = join(place.resourcesPath, 'nodwyn', 'nodwyn.mjs');
    if (existsSync(bundled)) return asNode(bundled);
  }
  return { command: 'nodwyn', args: [] };
}
