import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';

/** The person's config.toml, as the settings path reads, writes and backs it up. */
export interface ConfigStore {
  /** The file's text; `undefined` when there is none. */
  read(): Promise<string | undefined>;
  /** Replaces the file (atomically, readable by its owner only). */
  write(text: string): Promise<void>;
  /** Removes the file (restoring "there was none"). */
  remove(): Promise<void>;
  /** Keeps a copy of the previous text next to the file (`config.toml.bak`). */
  backup(text: string): Promise<void>;
}

/** A ConfigStore over `node:fs` for the file at `path`. */
export function nodeConfigStore(path: string): ConfigStore {
  const replace = async (target: string, text: string) => {
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, text, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, target);
  };
  return {
    read: async () => {
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write: (text) => replace(path, text),
    remove: () => rm(path, { force: true }),
    backup: (text) => replace(`${path}.bak`, text),
  };
}
