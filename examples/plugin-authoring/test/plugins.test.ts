import { describe, expect, it } from 'vitest';
import { loopDefaultPlugin } from '@nodwyn/plugin-loop-default';
import {
  describeLoopConformance,
  describePrimitivePluginConformance,
  describeProviderConformance,
  listProvider,
  startTestKernel,
} from '@nodwyn/testing';
import { clockPlugin } from '../src/clock.js';
import { giveUpPlugin } from '../src/give-up.js';
import { hideKeyIdsPlugin } from '../src/hide-key-ids.js';
import { notesPlugin } from '../src/notes.js';
import { parrotFactory, parrotPlugin } from '../src/parrot.js';
import { readOnlyPlugin } from '../src/read-only.js';
import { todayPlugin } from '../src/today.js';

describePrimitivePluginConformance(notesPlugin);
describeProviderConformance('parrot', () => parrotFactory.create({}));
describeLoopConformance(giveUpPlugin, 'give-up');

describe('notes', () => {
  it('appends without a confirmation, but replacing needs one', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin] });
    try {
      expect(await t.apply('note_write', { name: 'todo', text: 'ship the docs\n' })).toMatchObject({ ok: true });
      const replace = await t.apply('note_write', { name: 'todo', text: '', mode: 'replace' });
      expect(replace.ok ? undefined : replace.envelope.code).toBe('CONFIRMATION_REQUIRED');
      expect(await t.apply('note_write', { name: 'todo', text: 'done\n', mode: 'replace' }, { confirm: true })).toMatchObject({ ok: true });
      expect(await t.apply('note_read', { name: 'todo' })).toMatchObject({ ok: true, content: 'done\n' });
    } finally {
      await t.stop();
    }
  });

  it('answers a missing note with NOT_FOUND, naming the notes there are', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin] });
    try {
      await t.apply('note_write', { name: 'plan', text: 'x' });
      const result = await t.apply('note_read', { name: 'plan-b' });
      expect(result.ok ? undefined : result.envelope).toMatchObject({ category: 'NOT_FOUND', code: 'NOTE_NOT_FOUND', expected: 'plan' });
    } finally {
      await t.stop();
    }
  });

  it('refuses a malformed config table, naming the key', async () => {
    const settings = { plugins: { '@acme/nodwyn-plugin-notes': { max_bytes: 'lots' } } };
    await expect(startTestKernel({ plugins: [notesPlugin], settings })).rejects.toMatchObject({
      envelope: { code: 'NOTES_CONFIG_INVALID', failed_parameter: '$.max_bytes' },
    });
  });

  it('lists the notes from its command', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin] });
    try {
      await t.apply('note_write', { name: 'todo', text: 'x' });
      let out = '';
      const io = { stdin: process.stdin, write: (text: string) => void (out += text), error: () => undefined, interactive: false };
      expect(await t.kernel.commands.get('notes').item.run({ args: [], options: { json: true }, io })).toBe(0);
      expect(out).toBe('["todo"]\n');
    } finally {
      await t.stop();
    }
  });

  it('is used by the model in a whole turn', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin, loopDefaultPlugin] });
    try {
      const provider = listProvider([{ toolCalls: [{ name: 'note_write', args: { name: 'todo', text: 'ship\n' } }] }, { text: 'Noted.' }]);
      const result = await t.run('remember to ship', { provider });
      expect(result).toMatchObject({ reason: 'answer', answer: 'Noted.' });
      expect(t.events(result.session).map((event) => event.type)).toContain('tool.completed');
    } finally {
      await t.stop();
    }
  });
});

describe('guard stages', () => {
  it('read-only denies a mutating call before it runs', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin, readOnlyPlugin] });
    try {
      const result = await t.apply('note_write', { name: 'todo', text: 'x' });
      expect(result.ok ? undefined : [result.stage, result.envelope.code]).toEqual(['policy:read-only', 'READ_ONLY_MODE']);
      expect(await t.apply('note_read', { name: 'todo' })).toMatchObject({ ok: false, envelope: { code: 'NOTE_NOT_FOUND' } });
    } finally {
      await t.stop();
    }
  });

  it('hide-aws-key-ids redacts a key id in a result', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin, hideKeyIdsPlugin] });
    try {
      await t.apply('note_write', { name: 'creds', text: 'key AKIAIOSFODNN7EXAMPLE\n' });
      expect(await t.apply('note_read', { name: 'creds' })).toMatchObject({ content: 'key [REDACTED aws_access_key_id]\n' });
    } finally {
      await t.stop();
    }
  });
});

describe('parrot', () => {
  it('answers a turn with the prompt', async () => {
    const t = await startTestKernel({ plugins: [parrotPlugin, loopDefaultPlugin] });
    try {
      const provider = await t.kernel.providers.get('parrot').item.create({});
      expect(await t.run('hello there', { provider })).toMatchObject({ reason: 'answer', answer: 'hello there' });
    } finally {
      await t.stop();
    }
  });
});

describe('give-up', () => {
  it('stops after two rounds in which every call failed', async () => {
    const t = await startTestKernel({ plugins: [notesPlugin, giveUpPlugin] });
    try {
      const provider = listProvider([
        { toolCalls: [{ name: 'note_read', args: { name: 'a' } }] },
        { toolCalls: [{ name: 'note_read', args: { name: 'b' } }] },
        { text: 'never reached' },
      ]);
      const result = await t.run('read my notes', { provider, loop: t.kernel.loops.get('give-up').item });
      expect(result.answer).toBe('I stopped: every tool call failed 2 rounds in a row (last: NOTE_NOT_FOUND).');
    } finally {
      await t.stop();
    }
  });
});

describe('services', () => {
  it('a plugin gets the service it requires, whatever the order it is listed in', async () => {
    const t = await startTestKernel({ plugins: [todayPlugin, clockPlugin] });
    try {
      expect(await t.apply('today', {})).toMatchObject({ ok: true, content: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    } finally {
      await t.stop();
    }
  });
});
