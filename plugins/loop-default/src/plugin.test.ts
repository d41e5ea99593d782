import { describe, expect, it } from 'vitest';
import type { LoopStrategy, PluginContext } from '@nodwyn/plugin-api';
import { defaultLoop } from './default-loop.js';
import { loopDefaultPlugin } from './plugin.js';

function notUsed(what: string): never {
  throw new Error(`${what} is not used by loop-default`);
}

describe('loopDefaultPlugin', () => {
  it('registers exactly the default strategy its manifest provides', async () => {
    const loops: LoopStrategy[] = [];
    const context: PluginContext = {
      plugin: { name: loopDefaultPlugin.manifest.name, version: loopDefaultPlugin.manifest.version },
      config: {},
      settings: {},
      workspace: '/nonexistent-workspace',
      dataDir: '/nonexistent-data',
      log: { read: () => notUsed('log.read'), sessions: () => notUsed('log.sessions') },
      primitives: { register: () => notUsed('primitives.register'), list: () => notUsed('primitives.list') },
      providers: { register: () => notUsed('providers.register') },
      loops: { register: (strategy) => void loops.push(strategy) },
      guard: { addStage: () => notUsed('guard.addStage') },
      commands: { register: () => notUsed('commands.register') },
      events: { append: () => notUsed('events.append') },
      services: { provide: () => notUsed('services.provide'), get: () => notUsed('services.get') },
    };
    await loopDefaultPlugin.register(context);
    expect(loops).toEqual([defaultLoop]);
    expect(loopDefaultPlugin.manifest.provides).toEqual([`loop:${defaultLoop.id}`]);
    expect(defaultLoop.id).toBe('default');
  });
});
