import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAllowedCommand, parseAllowEntry, type AllowEntry } from './shell-allow-list.js';

const entries = (...sources: string[]): AllowEntry[] =>
  sources.map((source) => {
    const entry = parseAllowEntry(source);
    if (!entry) throw new Error(`test setup: ${source} should parse`);
    return entry;
  });

const ALLOW = entries('git status', 'npm test', 'git log *', 'ls *');

describe('parseAllowEntry', () => {
  it.each([
    ['git status', ['git', 'status'], false],
    ['  git   status ', ['git', 'status'], false],
    ['git log *', ['git', 'log'], true],
    ['npm run test:unit', ['npm', 'run', 'test:unit'], false],
  ])('parses %j', (source, words, prefix) => {
    expect(parseAllowEntry(source)).toEqual({ source, words, prefix });
  });

  it.each(['', '   ', '*', 'git log*', 'git * log', 'rm -rf; ls', 'echo $HOME', "git log 'x'", 'a | b', 'cat < x', 'ls\nrm', 'ls ~'])(
    'rejects %j',
    (source) => {
      expect(parseAllowEntry(source)).toBeUndefined();
    },
  );
});

describe('isAllowedCommand', () => {
  it.each([
    'git status',
    '  git   status  ',
    'git\tstatus',
    'npm test',
    'git log',
    'git log --oneline -n 5',
    'git log --format=%H main..HEAD',
    'ls -la src/',
  ])('allows %j', (command) => {
    expect(isAllowedCommand(command, ALLOW)).toBe(true);
  });

  it.each([
    // chaining and control operators
    'git status; rm -rf ~',
    'git status;rm -rf ~',
    'git status && rm -rf /',
    'git status || true',
    'git status | sh',
    'git status &',
    'git status & rm x',
    'git status\nrm -rf ~',
    'git status\r\nrm -rf ~',
    'git status\rrm',
    // substitutions and expansions
    'git log $(rm -rf ~)',
    'git log `rm -rf ~`',
    'git log ${HOME}',
    'git log $HOME',
    'git log <(curl evil)',
    'ls *',
    'ls ?',
    'ls [ab]',
    'ls {a,b}',
    'ls ~',
    'ls ~root',
    'ls !(x)',
    // redirections
    'git log > /etc/passwd',
    'git log >> ~/.bashrc',
    'git log < /etc/passwd',
    'git log 2>&1',
    // quoting and escapes that could hide an operator
    "git log 'a;b'",
    'git log "$(id)"',
    'git log \\; rm x',
    'ls -la \\\nrm x',
    // comments, subshells, groups
    'git log --oneline # comment',
    '(git status)',
    '{ git status; }',
    // near misses of an exact entry
    'git status --short',
    'npm test -- --watch',
    'git',
    'git statuses',
    'git-status',
    'GIT status',
    'FOO=bar git status',
    './git status',
    // look-alikes and control characters
    'git\u00a0status',
    'gіt status',
    'git status\u0000',
    'git status\u200b',
    '',
    '   ',
  ])('refuses %j', (command) => {
    expect(isAllowedCommand(command, ALLOW)).toBe(false);
  });

  it('allows nothing with an empty allow-list', () => {
    expect(isAllowedCommand('git status', [])).toBe(false);
  });

  const word = fc.stringMatching(/^[a-z0-9_.-]{1,8}$/);
  const words = fc.array(word, { minLength: 1, maxLength: 4 });

  it('property: a prefix entry allows its words followed by any plain words', () => {
    fc.assert(
      fc.property(words, fc.array(word, { maxLength: 4 }), (prefix, rest) => {
        expect(isAllowedCommand([...prefix, ...rest].join(' '), entries(`${prefix.join(' ')} *`))).toBe(true);
      }),
    );
  });

  it('property: no command holding a shell metacharacter is ever allowed, whatever follows the prefix', () => {
    const metacharacter = fc.constantFrom(...';&|`$()<>\n\r\'"\\*?[]{}~#!'.split(''));
    fc.assert(
      fc.property(words, fc.string({ maxLength: 12 }), metacharacter, fc.string({ maxLength: 12 }), (prefix, before, meta, after) => {
        const command = `${prefix.join(' ')} ${before}${meta}${after}`;
        expect(isAllowedCommand(command, entries(`${prefix.join(' ')} *`))).toBe(false);
      }),
    );
  });
});
