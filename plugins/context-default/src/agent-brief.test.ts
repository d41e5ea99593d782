import { describe, expect, it } from 'vitest';
import { AGENT_BRIEF, agentBriefText } from './agent-brief.js';

describe('agentBriefText', () => {
  it('says how to work, and adds a tip for each core tool the session offers, and none for others', () => {
    const text = agentBriefText([{ name: 'read_file' }, { name: 'shell' }, { name: 'my_tool' }]);
    expect(text.startsWith(AGENT_BRIEF)).toBe(true);
    expect(text).toContain('read the files you will edit');
    expect(text).toContain('`read_file`');
    expect(text).toContain('`shell`');
    expect(text).not.toContain('`edit_file`');
    expect(text).not.toContain('my_tool');
  });

  it('is the plain brief when no core tool is offered', () => {
    expect(agentBriefText([])).toBe(AGENT_BRIEF);
  });
});
