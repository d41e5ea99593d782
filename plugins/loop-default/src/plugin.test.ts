import { describe, expect, it } from 'vitest';
import { EnvelopeError, type LoopStrategy } from '@nodwyn/plugin-api';
import { pluginContextFor } from '@nodwyn/testing';
import { answer, RecordingFloor } from '../test/recording-floor.js';
import { loopDefaultPlugin } from './plugin.js';

describe('loopDefaultPlugin', () => {
  it('registers exactly the default strategy its manifest provides, and runs without a judge loaded', async () => {
    const loops: LoopStrategy[] = [];
    const context = pluginContextFor(loopDefaultPlugin, {
      loops: { register: (strategy) => void loops.push(strategy) },
      services: {
        provide: () => {
          throw new Error('services.provide is not used by loop-default');
        },
        get: () => {
          throw new EnvelopeError({ category: 'NOT_FOUND', code: 'SERVICE_NOT_FOUND', remediation: 'No plugin provides service "judge".' });
        },
      },
    });
    await loopDefaultPlugin.register(context);
    expect(loops.map((l) => l.id)).toEqual(['default']);
    expect(loopDefaultPlugin.manifest.provides).toEqual(['loop:default']);
    expect(loopDefaultPlugin.manifest.requires).toEqual([]);
    const floor = new RecordingFloor([answer('Hi.')]);
    expect(await loops[0]!.run(floor)).toEqual({ answer: 'Hi.' });
  });
});
