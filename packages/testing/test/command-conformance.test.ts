import { API_VERSION, definePlugin, type CliCommand } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { describeCommandConformance, runCommand } from '../src/index.js';

/** `nodwyn greet NAME [--shout]`: greets NAME, and refuses an empty or odd name with exit 2 and a word on stderr. */
const greetPlugin = definePlugin({
  manifest: { name: '@example/plugin-greet', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['command:greet'] },
  register(ctx) {
    ctx.commands.register({
      name: 'greet',
      description: 'Greets a person by name',
      arguments: ['NAME...'],
      options: [{ flags: '-s, --shout', description: 'greet in capitals' }],
      async run({ args, options, io }) {
        const name = args.join(' ');
        if (!/^[\p{L} .'-]{1,64}$/u.test(name)) {
          io.error('nodwyn greet: give a name of letters, at most 64 characters.\n');
          return 2;
        }
        const text = `Hello, ${name}!`;
        io.write(`${options.shout ? text.toUpperCase() : text}\n`);
        return 0;
      },
    });
  },
});

describeCommandConformance(greetPlugin);

describe('runCommand', () => {
  const hanging: CliCommand = { name: 'wait', description: 'Waits for input that never comes', run: () => new Promise<number>(() => undefined) };

  it('collects what a command wrote and its exit code', async () => {
    const command: CliCommand = { name: 'say', description: 'Says a word', run: async ({ io }) => (io.write('word\n'), io.error('note\n'), 3) };
    expect(await runCommand(command, [])).toEqual({ stdout: 'word\n', stderr: 'note\n', exit: 3 });
  });

  it('fails a command that waits for input that will not come, instead of hanging the suite', async () => {
    await expect(runCommand(hanging, [], {}, 100)).rejects.toThrow(/did not end within 100 ms/);
  });

  it('fails a command that throws a bare error', async () => {
    const throwing: CliCommand = { name: 'boom', description: 'Throws a bare error', run: async () => { throw new Error('boom'); } };
    await expect(runCommand(throwing, [])).rejects.toThrow('boom');
  });
});
