import { API_VERSION, definePlugin, EnvelopeError } from '@nodwyn/plugin-api';
import { describeAgentCommandConformance } from '../src/index.js';

/** The smallest agent command: `/echo TEXT` says TEXT back, and refuses a NUL with an envelope. */
const echoCommandPlugin = definePlugin({
  manifest: { name: '@example/plugin-echo-command', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['agent-command:echo'] },
  register(ctx) {
    ctx.agentCommands.register({
      name: 'echo',
      description: 'Says back what follows the command',
      hint: 'the text to say back',
      async run({ input }) {
        if (input.includes('\u0000')) throw new EnvelopeError({ category: 'VALIDATION_FAILED', code: 'ECHO_INPUT_INVALID', remediation: 'Give plain text after /echo.' });
        return input === '' ? 'Nothing to say back; type /echo TEXT.' : input;
      },
    });
  },
});

describeAgentCommandConformance(echoCommandPlugin);
