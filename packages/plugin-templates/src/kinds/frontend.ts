import { header, manifestSource, type KindTemplate } from './kind-template.js';

/** A front end: sends its arguments as one prompt and prints how the turn ended. */
export const frontendTemplate: KindTemplate = {
  summary: (n) => `A front end, ${n.base}, that sends its arguments as one prompt in a new session and prints how the turn ended.`,
  index: (n) => `${header("import { definePlugin, type Frontend } from '@nodwyn/plugin-api';", n)}
/** Exit codes: 0 a turn ended, 2 no prompt was given, 130 the app was stopped (Ctrl-C). */
const EXIT = { OK: 0, USAGE: 2, STOPPED: 130 } as const;

/** The \`${n.base}\` front end; \`print\` is where its output goes (stdout in the app). */
export function ${n.camel}Frontend(print: (text: string) => void = (text) => void process.stdout.write(text)): Frontend {
  return {
    id: '${n.base}',
    description: 'Sends its arguments as one prompt in a new session and prints how the turn ended.',
    async start({ client, workspace, args, signal }) {
      if (signal.aborted) return EXIT.STOPPED;
      const prompt = args.join(' ').trim();
      if (prompt === '') {
        print('usage: give the prompt as arguments\\n');
        return EXIT.USAGE;
      }
      const { sessionId } = await client.newSession(workspace);
      const stopped = new Promise<'stopped'>((resolve) => signal.addEventListener('abort', () => resolve('stopped'), { once: true }));
      const ended = await Promise.race([client.prompt(sessionId, prompt).then((r) => r.stopReason), stopped]);
      // The app owns the client: cancel the turn, never close the connection.
      if (ended === 'stopped') {
        await client.cancel(sessionId);
        return EXIT.STOPPED;
      }
      print(\`\${ended}\\n\`);
      return EXIT.OK;
    },
  };
}

/** Contributes the front end \`${n.base}\`. */
export const ${n.camel}Plugin = definePlugin({
${manifestSource(frontendTemplate.summary(n), [`frontend:${n.base}`])}
  register(ctx) {
    ctx.frontends.register(${n.camel}Frontend());
  },
});

export default ${n.camel}Plugin;
`,
  test: (n) => `import { describeFrontendConformance } from '@nodwyn/testing';
import { ${n.camel}Plugin } from './index.js';

describeFrontendConformance(${n.camel}Plugin);
describeFrontendConformance(${n.camel}Plugin, { args: ['hello'] });
`,
};
