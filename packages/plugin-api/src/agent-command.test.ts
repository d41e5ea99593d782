import { describe, expect, it } from 'vitest';
import { AGENT_COMMAND_NAME, RESERVED_AGENT_COMMANDS } from './agent-command.js';

describe('agent command names', () => {
  it('take short lowercase words with dashes, as a person types them after /', () => {
    for (const name of ['capabilities', 'a', 'git-log', 'x2']) expect(AGENT_COMMAND_NAME.test(name), name).toBe(true);
    for (const name of ['', 'Caps', '2x', '-x', 'snake_case', 'a'.repeat(33), 'with space', 'capabilities/']) expect(AGENT_COMMAND_NAME.test(name), name).toBe(false);
  });

  it('reserve the agent\'s own commands and the ones front ends answer, each a valid name', () => {
    expect(RESERVED_AGENT_COMMANDS).toEqual(expect.arrayContaining(['title', 'tools', 'model', 'cost', 'verify', 'trust', 'help', 'quit']));
    for (const name of RESERVED_AGENT_COMMANDS) expect(AGENT_COMMAND_NAME.test(name), name).toBe(true);
  });
});
