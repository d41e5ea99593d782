import { MODEL_NAME } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { modelToolName } from './tool-name.js';
import { tierOf } from './tool-tier.js';

describe('modelToolName', () => {
  it('prefixes the server and fits the model name rule', () => {
    expect(modelToolName('github', 'create_issue', new Set())).toBe('mcp_github_create_issue');
    expect(modelToolName('My-Server.v2', 'Get File/Contents', new Set())).toBe('mcp_my_server_v2_get_file_contents');
  });

  it('cuts long names to 64 characters, keeping two long names apart', () => {
    const a = modelToolName('server', `${'x'.repeat(80)}_a`, new Set());
    const b = modelToolName('server', `${'x'.repeat(80)}_b`, new Set());
    expect(a).toMatch(MODEL_NAME);
    expect(a.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
  });

  it('gives a tool that sanitizes like a taken name a name of its own', () => {
    const first = modelToolName('s', 'get-file', new Set());
    const second = modelToolName('s', 'get_file', new Set([first]));
    expect(first).toBe('mcp_s_get_file');
    expect(second).not.toBe(first);
    expect(second).toMatch(MODEL_NAME);
  });
});

describe('tierOf', () => {
  it('lets a hint only add care', () => {
    expect(tierOf(undefined)).toBe('mutate');
    expect(tierOf({ readOnlyHint: true })).toBe('read');
    expect(tierOf({ readOnlyHint: false })).toBe('mutate');
    expect(tierOf({ destructiveHint: true })).toBe('destructive');
    expect(tierOf({ readOnlyHint: true, destructiveHint: true })).toBe('destructive');
    expect(tierOf({ destructiveHint: false })).toBe('mutate');
  });
});
