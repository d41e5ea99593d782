import { describe, expect, it } from 'vitest';
import { definePlugin } from './define-plugin.js';
import { isEnvelopeError } from './envelope.js';

describe('definePlugin', () => {
  it('parses the manifest, filling defaults', () => {
    const plugin = definePlugin({ manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0' }, register: () => undefined });
    expect(plugin.manifest).toMatchObject({ provides: [], requires: [], permissions: [], userOnlyConfig: false });
  });

  it('accepts front ends in provides and a user-only config section', () => {
    const plugin = definePlugin({
      manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0', provides: ['frontend:tui'], userOnlyConfig: true },
      register: () => undefined,
    });
    expect(plugin.manifest).toMatchObject({ provides: ['frontend:tui'], userOnlyConfig: true });
  });

  it('accepts agent commands in provides, and refuses a kind it does not know', () => {
    const plugin = definePlugin({ manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0', provides: ['agent-command:capabilities'] }, register: () => undefined });
    expect(plugin.manifest.provides).toEqual(['agent-command:capabilities']);
    expect(() => definePlugin({ manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0', provides: ['slash-command:x'] }, register: () => undefined })).toThrow(
      expect.objectContaining({ envelope: expect.objectContaining({ failed_parameter: '$.provides[0]' }) }),
    );
  });

  it('refuses a user-only flag that is not a boolean, naming it', () => {
    expect(() => definePlugin({ manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0', userOnlyConfig: 'yes' as unknown as boolean }, register: () => undefined })).toThrow(
      expect.objectContaining({ envelope: expect.objectContaining({ failed_parameter: '$.userOnlyConfig' }) }),
    );
  });

  it('refuses a malformed manifest with an envelope naming the JSON path', () => {
    let error: unknown;
    try {
      definePlugin({ manifest: { name: 'p', version: '1.0.0', apiVersion: '^0.1.0', provides: ['read_file'] }, register: () => undefined });
    } catch (caught) {
      error = caught;
    }
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({
      category: 'VALIDATION_FAILED',
      code: 'PLUGIN_MANIFEST_INVALID',
      plugin: 'p',
      failed_parameter: '$.provides[0]',
      received_value: 'read_file',
    });
  });
});
