import { openBrowser } from '@nodwyn/client/node';
import type { FrontendClient } from '@nodwyn/protocol';

/** Where `showLoginLink` writes and what it looks at (the process's own unless a test gives others). */
export interface ShowLoginLinkOptions {
  /** Open the browser (false: `--no-open`, print the link). */
  readonly open: boolean;
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  /** The link, as the last line, when it was not opened. */
  readonly stdout?: { write(text: string): unknown };
  /** Progress notes, never the link. */
  readonly stderr?: { write(text: string): unknown };
}

/** How the person got the link. */
export type LinkShown = 'opened' | 'printed';

/**
 * Gets a one-time login link from the daemon and opens it in the person's browser; when asked not to,
 * or when no browser can be opened (no display, the opener failed), prints it as the last line on
 * stdout, for the person (or a script) to open within its lifetime. Notes go to stderr.
 */
export async function showLoginLink(client: Pick<FrontendClient, 'loginLink'>, options: ShowLoginLinkOptions): Promise<LinkShown> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const link = await client.loginLink();
  const seconds = Math.round(link.expiresInMs / 1000);
  if (options.open && (await openBrowser(link.url, { env: options.env, platform: options.platform }))) {
    stderr.write(`nodwyn: opened the web console in your browser (the login link works once, for ${seconds} s)\n`);
    return 'opened';
  }
  if (options.open) stderr.write('nodwyn: no browser could be opened here\n');
  stderr.write(`nodwyn: open this link in your browser within ${seconds} s; it logs in once:\n`);
  stdout.write(`${link.url}\n`);
  return 'printed';
}
