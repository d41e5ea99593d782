import { MODEL_NAME, z, type Tier, type Visibility } from '@nodwyn/plugin-api';
import { pluginContextFor } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { expectEnvelope } from '../test/call-context.js';
import { TOOL_NAMES, toolsCorePlugin } from './index.js';

/** What the tests look at in a registered primitive. */
interface Registered {
  readonly name: string;
  readonly description: string;
  readonly tier: Tier;
  readonly visibility: Visibility;
  readonly input: z.ZodType;
  readonly classify?: (args: never) => Tier;
}

/** A plugin context that records registered primitives; anything else a plugin might touch throws. */
function recordingContext(settings: Record<string, unknown> = {}) {
  const registered: Registered[] = [];
  const stages: string[] = [];
  const context = pluginContextFor(toolsCorePlugin, {
    settings,
    guard: { addStage: (stage) => void stages.push(`guard-stage:${stage.name}`) },
    primitives: {
      register: (definition) => void registered.push(definition),
      addSource: () => {
        throw new Error('primitives.addSource is not used by tools-core');
      },
      list: () => [],
    },
  });
  return { context, registered, stages };
}

const TIERS = { read_file: 'read', write_file: 'mutate', edit_file: 'mutate', list_dir: 'read', glob: 'read', grep: 'read', shell: 'destructive' };

describe('toolsCorePlugin', () => {
  it('declares its manifest: a primitive per tool, the .git write stage and the permissions it uses', () => {
    expect(toolsCorePlugin.manifest).toMatchObject({
      name: '@nodwyn/plugin-tools-core',
      version: '0.1.0',
      apiVersion: '^0.1.0',
      provides: [...TOOL_NAMES.map((name) => `primitive:${name}`), 'guard-stage:git-writes'],
      permissions: ['fs.read', 'fs.write', 'process.spawn'],
    });
  });

  it('registers exactly what it provides, model-visible, with the declared tiers', async () => {
    const { context, registered, stages } = recordingContext();
    await toolsCorePlugin.register(context);
    expect([...registered.map((tool) => `primitive:${tool.name}`), ...stages]).toEqual(toolsCorePlugin.manifest.provides);
    for (const tool of registered) {
      expect(tool.name).toMatch(MODEL_NAME);
      expect(tool.visibility).toBe('model');
      expect(tool.tier).toBe(TIERS[tool.name as keyof typeof TIERS]);
    }
  });

  it('describes every input field for the model', async () => {
    const { context, registered } = recordingContext();
    await toolsCorePlugin.register(context);
    for (const tool of registered) {
      const schema = z.toJSONSchema(tool.input) as { properties: Record<string, { description?: string }>; additionalProperties?: boolean };
      expect(tool.description.length, tool.name).toBeGreaterThan(80);
      expect(schema.additionalProperties, tool.name).toBe(false);
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.description?.length ?? 0, `${tool.name}.${field}`).toBeGreaterThan(15);
      }
    }
  });

  it('takes the shell allow-list from the settings', async () => {
    const { context, registered } = recordingContext({ tools: { shell: { allow: ['make check'] } } });
    await toolsCorePlugin.register(context);
    const shell = registered.find((tool) => tool.name === 'shell');
    const classify = shell?.classify as ((args: { command: string }) => Tier) | undefined;
    expect(classify?.({ command: 'make check' })).toBe('mutate');
    expect(classify?.({ command: 'make clean' })).toBe('destructive');
  });

  it('refuses to register with a malformed allow-list, naming the entry', async () => {
    const { context, registered } = recordingContext({ tools: { shell: { allow: ['ls', 'ls | sh'] } } });
    const envelope = await expectEnvelope(Promise.resolve().then(() => toolsCorePlugin.register(context)), 'VALIDATION_FAILED', 'CONFIG_INVALID');
    expect(envelope.failed_parameter).toBe('$.tools.shell.allow[1]');
    expect(registered).toEqual([]);
  });
});
