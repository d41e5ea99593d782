import { describe, expect, it } from 'vitest';
import { readRootWords, similarCommands } from './root-words.js';

const COMMANDS = ['run', 'models', 'tools', 'plugins', 'trust', 'log', 'acp', 'serve', 'fork', 'attach', 'setup', 'help', 'secret', 'bind', 'capability', 'redact'];

describe('readRootWords', () => {
  it('reads a quoted prompt as a prompt, even one word away from a command', () => {
    expect(readRootWords(['fix the parser'], COMMANDS)).toEqual({ kind: 'prompt', prompt: 'fix the parser', rest: [] });
    expect(readRootWords(['run it'], COMMANDS)).toMatchObject({ kind: 'prompt', prompt: 'run it' });
  });

  it('joins unquoted words into one prompt when the first is not close to a command', () => {
    expect(readRootWords(['fix', 'the', 'parser'], COMMANDS)).toEqual({ kind: 'prompt', prompt: 'fix the parser', rest: [] });
    expect(readRootWords(['add', 'tests'], COMMANDS)).toMatchObject({ kind: 'prompt', prompt: 'add tests' });
  });

  it('leaves the options after the prompt to nodwyn run', () => {
    expect(readRootWords(['explain', 'this', '--yes', '--max-turns', '3'], COMMANDS)).toEqual({ kind: 'prompt', prompt: 'explain this', rest: ['--yes', '--max-turns', '3'] });
  });

  it('never guesses one bare word is a prompt', () => {
    expect(readRootWords(['frobnicate'], COMMANDS)).toEqual({ kind: 'unknown', word: 'frobnicate', suggestions: [] });
    expect(readRootWords(['hello', '--yes'], COMMANDS)).toMatchObject({ kind: 'unknown', word: 'hello' });
  });

  it('calls a first word close to a command a typo, with what it is close to', () => {
    expect(readRootWords(['lgo', 'list'], COMMANDS)).toEqual({ kind: 'unknown', word: 'lgo', suggestions: ['log'] });
    expect(readRootWords(['serv', '--port', '0'], COMMANDS)).toMatchObject({ kind: 'unknown', suggestions: ['serve'] });
    expect(readRootWords(['secrte', 'add', 'x'], COMMANDS)).toMatchObject({ kind: 'unknown', suggestions: ['secret'] });
  });
});

describe('similarCommands', () => {
  it("follows commander's rule: fewest edits, at least 40% kept, all ties named", () => {
    expect(similarCommands('rnu', COMMANDS)).toEqual(['run']);
    expect(similarCommands('tol', COMMANDS)).toEqual(['tools']);
    expect(similarCommands('lgo', COMMANDS)).toEqual(['log']);
    expect(similarCommands('fix', COMMANDS)).toEqual([]);
    expect(similarCommands('trst', COMMANDS)).toEqual(['trust']);
    expect(similarCommands('tools', ['tools', 'trust'])).toEqual(['tools']);
  });
});
