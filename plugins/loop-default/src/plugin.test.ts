import { describe, expect, it } from 'vitest';
import { EnvelopeError, type LoopStrategy, type PluginContext } from '@nodwyn/plugin-api';
import { answer, RecordingFloor } from '../test/recording-floor.js';
import { loopDefaultPlugin } from './plugin.js';

function notUsed(what: string): never {
  throw new Error(`${what} is not used by loop-default`);
}

describe('loopDefaultPlugin', () => {
  it('registers exactly the default strategy its manifest provides, and runs without a judge loaded', async () => {
    const loops: LoopStrategy[] = [];
    const context: PluginContext = {
      plugin: { name: loopDefaultPlugin.manifest.name, version: loopDefaultPlugin.manifest.version },
      config: {},
      settings: {},
      workspace: '/nonexistent-workspace',
      dataDir: '/nonexistent-data',
      log: { read: () => notUsed('log.read'), sessions: () => notUsed('log.sessions') },
      primitives: { register: () => notUsed('primitives.register'), addSource: () => notUsed('primitives.addSource'), list: () => notUsed('primitives.list') },
      providers: { register: () => notUsed('providers.register') },
      loops: { register: (strategy) => void loops.push(strategy) },
      guard: { addStage: () => notUsed('guard.addStage') },
      commands: { register: () => notUsed('commands.register') },
      events: { append: () => notUsed('events.append') },
    calls: { session: () => notUsed('calls.session'), apply: () => notUsed('calls.apply') },
    get store(): never {
      return notUsed('store');
    },
      models: { complete: () => notUsed('models.complete') },
      services: {
        provide: () => notUsed('services.provide'),
        get: () => {
          throw new EnvelopeError({ category: 'NOT_FOUND', code: 'SERVICE_NOT_FOUND', remediation: 'No plugin provides service "judge".' });
        },
      },
    };
    await loopDefaultPlugin.register(context);
    expect(loops.map((l) => l.id)).toEqual(['default']);
    expect(loopDefaultPlugin.manifest.provides).toEqual(['loop:default']);
    expect(loopDefaultPlugin.manifest.requires).toEqual([]);
    const floor = new RecordingFloor([answer('Hi.')]);
    expect(await loops[0]!.run(floor)).toEqual({ answer: 'Hi.' });
  });
});
