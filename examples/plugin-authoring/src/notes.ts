import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { definePlugin, definePrimitive, EnvelopeError, jsonPath, valueAt, z } from '@nodwyn/plugin-api';
import { NotesCode, notesFail, PLUGIN } from './errors.js';

// The pattern keeps every note inside the notes folder: no slash, no dot, so no `..` either.
const noteName = z.string().regex(/^[a-z0-9-]{1,40}$/).describe('Note name: lowercase letters, digits and dashes.');

// `[plugins."@acme/nodwyn-plugin-notes"]` in config.toml. Strict, so a misspelt key is an error.
const NotesConfig = z.object({ max_bytes: z.number().int().positive().default(64 * 1024) }).strict();

export const notesPlugin = definePlugin({
  manifest: {
    name: PLUGIN,
    version: '1.0.0',
    apiVersion: '^0.1.0',
    description: 'Notes the model keeps between sessions, in the data directory.',
    provides: ['primitive:note_read', 'primitive:note_write', 'command:notes'],
    permissions: ['fs.read', 'fs.write'],
  },
  register(ctx) {
    const parsed = NotesConfig.safeParse(ctx.config);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      notesFail('NOTES_CONFIG_INVALID', {
        operation: 'register',
        failed_parameter: jsonPath(issue.path),
        received_value: valueAt(ctx.config, issue.path),
        expected: issue.message,
        remediation: `Fix ${jsonPath(issue.path)} in [plugins."${PLUGIN}"] of config.toml: ${issue.message}.`,
      });
    }
    const maxBytes = parsed.data.max_bytes;
    const dir = join(ctx.dataDir, 'notes');
    const fileOf = (name: string) => join(dir, `${name}.md`);
    const names = () => (existsSync(dir) ? readdirSync(dir).map((file) => file.replace(/\.md$/, '')).sort() : []);

    ctx.primitives.register(
      definePrimitive({
        name: 'note_read',
        description: 'Reads a note saved earlier with note_write.',
        input: z.object({ name: noteName }).strict(),
        tier: 'read',
        visibility: 'model',
        handler: ({ name }) => {
          if (!existsSync(fileOf(name))) {
            notesFail('NOTE_NOT_FOUND', {
              failed_parameter: '$.name',
              received_value: name,
              expected: names().join(', ') || 'no notes yet',
              remediation: `There is no note "${name}". Read one of the expected notes, or create it with note_write.`,
            });
          }
          return { content: readFileSync(fileOf(name), 'utf8') };
        },
      }),
    );

    ctx.primitives.register(
      definePrimitive({
        name: 'note_write',
        description: 'Appends text to a note, creating it; mode "replace" replaces the whole note instead.',
        input: z.object({ name: noteName, text: z.string(), mode: z.enum(['append', 'replace']).optional() }).strict(),
        // The most a call can do: replacing loses the old text, so it needs a confirmation.
        tier: 'destructive',
        // Appending loses nothing; such a call runs without asking.
        classify: (args) => (args.mode === 'replace' ? 'destructive' : 'mutate'),
        visibility: 'model',
        handler: ({ name, text, mode = 'append' }) => {
          const before = existsSync(fileOf(name)) ? statSync(fileOf(name)).size : 0;
          const after = (mode === 'append' ? before : 0) + Buffer.byteLength(text);
          if (after > maxBytes) {
            notesFail('NOTE_TOO_LARGE', {
              failed_parameter: '$.text',
              expected: `at most ${maxBytes} bytes in a note`,
              remediation: `Note "${name}" would grow to ${after} bytes. Shorten the text, or replace the note with a summary.`,
            });
          }
          try {
            mkdirSync(dir, { recursive: true });
            if (mode === 'append') appendFileSync(fileOf(name), text);
            else writeFileSync(fileOf(name), text);
          } catch (error) {
            const reason = (error as NodeJS.ErrnoException).code ?? 'unknown';
            throw new EnvelopeError(
              { category: NotesCode.NOTE_WRITE_FAILED, code: 'NOTE_WRITE_FAILED', plugin: PLUGIN, received_value: reason, remediation: `Note "${name}" could not be written (${reason}). Ask the user to check ${dir}.` },
              { cause: error },
            );
          }
          return { content: `${mode === 'append' ? 'Appended to' : 'Replaced'} note "${name}"; it has ${after} bytes.` };
        },
      }),
    );

    ctx.commands.register({
      name: 'notes',
      description: 'Lists the notes the model has kept.',
      options: [{ flags: '--json', description: 'print JSON' }],
      async run({ options, io }) {
        const list = names();
        if (options.json) io.write(`${JSON.stringify(list)}\n`);
        else io.write(list.length > 0 ? `${list.join('\n')}\n` : 'no notes yet\n');
        return 0;
      },
    });
  },
});

export default notesPlugin;
