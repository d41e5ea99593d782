import { describe, expect, it } from 'vitest';
import { LogBuffer } from './log-buffer.js';

describe('LogBuffer', () => {
  it('keeps output up to the cap in UTF-8 bytes and cuts at a character boundary', () => {
    const logs = new LogBuffer(10);
    expect(logs.append('abc')).toBe(true);
    expect(logs.append('✓✓✓')).toBe(false);
    expect(logs.text()).toBe('abc✓✓');
    expect(logs.bytes).toBe(9);
    expect(logs.overflowed).toBe(true);
    expect(logs.append('more')).toBe(false);
    expect(logs.text()).toBe('abc✓✓');
  });
});
