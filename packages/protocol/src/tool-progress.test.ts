import { describe, expect, it } from 'vitest';
import { progressText } from './tool-progress.js';

describe('progressText', () => {
  it('reads as a person would say it', () => {
    expect(progressText({ progress: 3, total: 10, message: 'compiling' })).toBe('3/10 compiling');
    expect(progressText({ progress: 42.4, total: 100 })).toBe('42%');
    expect(progressText({ progress: 2 })).toBe('step 2');
    expect(progressText({ progress: 2, message: 'indexing' })).toBe('indexing');
  });
});
