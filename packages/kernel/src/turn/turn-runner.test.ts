import type { TurnFloor } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryKernel, replies } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

const oneCall = {
  id: 'one-call',
  description: 'answers with one model call',
  async run(floor: TurnFloor) {
    return { answer: (await floor.callModel()).text };
  },
};

describe('a turn', () => {
  it('logs the prompt as the person\'s words, and a turn without one (an agent command\'s) logs none', async () => {
    kernel = memoryKernel();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = replies([{ text: 'first answer' }, { text: 'second answer' }]);
    await kernel.run({ session, prompt: 'hello', provider, strategy: oneCall });
    const result = await kernel.run({ session, provider, strategy: oneCall });
    expect(result).toMatchObject({ reason: 'answer', answer: 'second answer' });
    const types = kernel.log.read(session).map((e) => e.type).filter((t) => t.startsWith('message.') || t.startsWith('turn.'));
    expect(types).toEqual(['message.user', 'turn.started', 'message.assistant', 'turn.ended', 'turn.started', 'message.assistant', 'turn.ended']);
    // The second call saw the session as it was: the first ask and answer, nothing new from the person.
    expect(provider.requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
