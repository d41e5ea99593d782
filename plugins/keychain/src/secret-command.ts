import type { CliCommand, CommandIO, SecretInfo } from '@nodwyn/plugin-api';
import type { FileKeychain } from './file-keychain.js';
import { readSecretValue } from './secret-input.js';

const USAGE = 'usage: nodwyn secret add NAME --class CLASS [--force]  (value on stdin)\n       nodwyn secret list [--json]\n       nodwyn secret rm NAME';
const EXIT_OK = 0;
const EXIT_USAGE = 2;

type Options = Readonly<Record<string, unknown>>;

/**
 * `nodwyn secret add|list|rm`. Values only ever come in on stdin and never go out: there is no `show`.
 * Usage mistakes return 2; every other failure is thrown as an envelope, which the CLI prints (exit 3).
 */
export function secretCommand(keychain: () => FileKeychain): CliCommand {
  return {
    name: 'secret',
    description: 'Manage keychain secrets: add NAME --class CLASS (value on stdin, hidden on a terminal), list, rm NAME.',
    arguments: ['action', 'name...'],
    options: [
      { flags: '--class <class>', description: 'add: the secret class bindings refer to, e.g. github' },
      { flags: '--force', description: 'add: replace an existing secret of that name' },
      { flags: '--json', description: 'list: print JSON' },
    ],
    async run({ args, options, io }) {
      const [action, ...names] = args;
      const problem = usageProblem(action, names, options);
      if (problem) {
        io.error(`nodwyn secret: ${problem}\n${USAGE}\n`);
        return EXIT_USAGE;
      }
      if (action === 'list') return list(await keychain().list(), io, options.json === true);
      if (action === 'rm') {
        await keychain().remove(names[0]!);
        io.write(`Removed ${names[0]}.\n`);
        return EXIT_OK;
      }
      return add(keychain(), names[0]!, String(options.class), options.force === true, io);
    },
  };
}

function usageProblem(action: string | undefined, names: readonly string[], options: Options): string | undefined {
  if (action === 'list') return names.length === 0 ? undefined : 'list takes no NAME';
  if (action === 'rm') return names.length === 1 ? undefined : 'rm takes exactly one NAME';
  if (action !== 'add') return action === undefined ? 'name an action' : `unknown action "${action}"`;
  if (names.length !== 1) return 'add takes exactly one NAME (the value comes on stdin, never as an argument)';
  return typeof options.class === 'string' ? undefined : 'add needs --class CLASS';
}

async function add(keychain: FileKeychain, name: string, cls: string, force: boolean, io: CommandIO): Promise<number> {
  keychain.assertAddable(name, cls, force);
  const outcome = await keychain.add(name, cls, await readSecretValue(io, name), force);
  if (outcome.createdKeyFile) {
    io.error(`Created the key file ${outcome.createdKeyFile} (mode 600): back it up, and keep it away from copies of the keychain. Set NODWYN_KEYCHAIN_PASSPHRASE before the first secret to use a passphrase instead.\n`);
  }
  io.write(`Stored ${name} (class ${cls}).\n`);
  return EXIT_OK;
}

function list(secrets: readonly SecretInfo[], io: CommandIO, json: boolean): number {
  if (json) io.write(`${JSON.stringify(secrets.map(({ name, class: cls, created, lastUsed }) => ({ name, class: cls, created, lastUsed: lastUsed ?? null })))}\n`);
  else if (secrets.length === 0) io.write('No secrets. Add one with: printf %s "$TOKEN" | nodwyn secret add NAME --class CLASS\n');
  else io.write(table(['NAME', 'CLASS', 'CREATED', 'LAST USED'], secrets.map((s) => [s.name, s.class, s.created, s.lastUsed ?? 'never'])));
  return EXIT_OK;
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[headers, ...rows].map(line).join('\n')}\n`;
}
