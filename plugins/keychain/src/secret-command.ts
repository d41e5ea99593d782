import type { CliCommand, CommandIO } from '@nodwyn/plugin-api';
import type { FileKeychain } from './file-keychain.js';

const USAGE = 'usage: nodwyn secret add NAME --class CLASS [--force] | list [--json] | rm NAME';

/** `nodwyn secret add|list|rm`. Values only ever come in on stdin and never go out. */
export function secretCommand(keychain: () => FileKeychain): CliCommand {
  return {
    name: 'secret',
    description: 'Manage secrets in the keychain: add NAME --class CLASS (value on stdin), list, rm NAME.',
    arguments: ['action', 'name...'],
    options: [
      { flags: '--class <class>', description: 'the secret class bindings refer to (add)' },
      { flags: '--force', description: 'replace an existing secret (add)' },
      { flags: '--json', description: 'print JSON (list)' },
    ],
    async run({ args, options, io }) {
      const [action, name] = args;
      if (action === 'list' && args.length === 1) return list(keychain(), io, options.json === true);
      if (action === 'rm' && name && args.length === 2) {
        await keychain().remove(name);
        io.write(`removed ${name}\n`);
        return 0;
      }
      if (action === 'add' && name && args.length === 2 && typeof options.class === 'string') {
        const value = await readValue(io, name);
        await keychain().add(name, options.class, value, options.force === true);
        io.write(`stored ${name} (class ${options.class})\n`);
        return 0;
      }
      io.error(`${USAGE}\n`);
      return 2;
    },
  };
}

async function list(keychain: FileKeychain, io: CommandIO, json: boolean): Promise<number> {
  const secrets = await keychain.list();
  if (json) io.write(`${JSON.stringify(secrets)}\n`);
  else if (secrets.length === 0) io.write('no secrets\n');
  else for (const s of secrets) io.write(`${s.name}\t${s.class}\tcreated ${s.created}\tlast used ${s.lastUsed ?? 'never'}\n`);
  return 0;
}

// On a terminal the value is typed without echo; piped input is read whole, less one trailing newline.
async function readValue(io: CommandIO, name: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  if (io.interactive && typeof stdin.setRawMode === 'function') return readHidden(stdin, io, name);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function readHidden(stdin: NodeJS.ReadStream, io: CommandIO, name: string): Promise<string> {
  io.error(`value for ${name} (not shown): `);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(undefined);
        if (ch === '\u0003') return done(new Error('cancelled'));
        value = ch === '\u007f' ? value.slice(0, -1) : value + ch;
      }
    };
    const done = (error: Error | undefined): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.error('\n');
      if (error) reject(error);
      else resolve(value);
    };
    stdin.on('data', onData);
  });
}
