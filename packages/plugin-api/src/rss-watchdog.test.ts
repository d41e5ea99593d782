import { describe, expect, it } from 'vitest';
import { rssOf } from './rss-watchdog.js';

describe('rssOf', () => {
  it('reads VmRSS from /proc/<pid>/status in bytes', () => {
    expect(rssOf('Name:\tnode\nVmPeak:\t  100 kB\nVmRSS:\t   42256 kB\nThreads:\t7\n')).toBe(42256 * 1024);
    expect(rssOf('Name:\tnode\n')).toBeUndefined();
  });
});
