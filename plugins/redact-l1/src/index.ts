import { definePlugin, lookup, RedactorToken, TaintToken, type PluginDefinition } from '@nodwyn/plugin-api';
import { redactCommand } from './command.js';
import { detect } from './detect.js';
import { PLUGIN_NAME } from './errors.js';
import { createRedactor } from './redactor.js';
import type { Detection } from './resolve.js';
import { ingressStage, INGRESS_STAGE, logStage, LOG_STAGE } from './stages.js';

/** What the plugin contributes, as its manifest lists it. */
export const REDACT_L1_PROVIDES = [`guard-stage:${INGRESS_STAGE}`, `guard-stage:${LOG_STAGE}`, 'service:redactor', 'command:redact'];

/**
 * Builds the L1 plugin. `find` replaces the detector, so tests can prove the stages fail closed when it
 * throws; a distribution uses `redactL1Plugin`.
 */
export function createRedactL1Plugin(options: { find?: (text: string) => readonly Detection[] } = {}): PluginDefinition {
  return definePlugin({
    manifest: {
      name: PLUGIN_NAME,
      version: '0.1.0',
      apiVersion: '^0.1.0',
      // Its section (what counts as a secret) keeps secrets out of the model: only the person's own config sets it.
      userOnlyConfig: true,
      description: 'The deterministic text layer (L1): replaces detected secrets with [REDACTED <class>] in tool results and log events.',
      provides: REDACT_L1_PROVIDES,
    },
    // Looked up at each call, not ordered after L2: L1's stages must run before L2's, which a plugin's
    // place in the load order decides.
    deps: { taint: lookup(TaintToken) },
    register(ctx, { taint }) {
      const redactor = createRedactor(options.find ?? detect);
      ctx.services.provide(RedactorToken, redactor);
      ctx.guard.addStage(ingressStage(redactor, taint));
      ctx.guard.addStage(logStage(redactor, taint));
      ctx.commands.register(redactCommand(redactor));
    },
  });
}

/**
 * The L1 text layer: the `redactor` service, an ingress stage that redacts tool results and tags them
 * with the classes found, a log stage that redacts every event before it is written, and `nodwyn redact`.
 */
export const redactL1Plugin = createRedactL1Plugin();

export { redactCommand } from './command.js';
export { RedactErrorCode } from './errors.js';
export { createRedactor, redact, type DetectingRedactor, type Redaction } from './redactor.js';
export type { Detection } from './resolve.js';
export { SECRET_CLASSES } from './classes.js';
