import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `$NODWYN_HOME/serve.json`: where a running daemon listens and the token to reach it (mode 0600). */
export interface DaemonFile {
  readonly url: string;
  readonly http: string;
  readonly token: string;
  readonly pid: number;
}

/** The daemon file's path in a data folder. */
export function daemonFilePath(home: string): string {
  return join(home, 'serve.json');
}

/** The daemon file, if there is a readable one. */
export function readDaemonFile(home: string): DaemonFile | undefined {
  try {
    const data = JSON.parse(readFileSync(daemonFilePath(home), 'utf8')) as Partial<DaemonFile>;
    if (typeof data.url === 'string' && typeof data.token === 'string' && typeof data.pid === 'number' && typeof data.http === 'string') return data as DaemonFile;
  } catch {
    // Missing or torn: no daemon is known.
  }
  return undefined;
}

/** Writes the daemon file readable by its owner only, through a rename so no reader sees half of it. */
export function writeDaemonFile(home: string, file: DaemonFile): void {
  const path = daemonFilePath(home);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/** Removes the daemon file, if it still names `pid` (a newer daemon's file is left alone). */
export function removeDaemonFile(home: string, pid: number): void {
  if (readDaemonFile(home)?.pid === pid) rmSync(daemonFilePath(home), { force: true });
}

/** Whether a process with this id is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
