import type { ToolProgress } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { PROGRESS_MESSAGE_MAX, progressReporter } from './progress.js';

describe('a tool call\'s progress reporter', () => {
  it('passes at most one report per interval on, always the one that reaches the total', () => {
    const heard: ToolProgress[] = [];
    let now = 1000;
    const report = progressReporter((update) => heard.push(update), () => now);
    report({ progress: 1, total: 4 });
    now += 10;
    report({ progress: 2, total: 4 });
    now += 200;
    report({ progress: 3, total: 4, message: 'third' });
    now += 1;
    report({ progress: 4, total: 4 });
    expect(heard).toEqual([{ progress: 1, total: 4 }, { progress: 3, total: 4, message: 'third' }, { progress: 4, total: 4 }]);
  });

  it('drops reports without a finite progress, cuts long messages and keeps the listener\'s failures from the tool', () => {
    const heard: ToolProgress[] = [];
    let now = 0;
    const report = progressReporter((update) => heard.push(update), () => (now += 1000));
    report({ progress: Number.NaN });
    report({ progress: Infinity });
    report(null as unknown as ToolProgress);
    report({ progress: 1, total: Number.NaN, message: 'x'.repeat(5000) });
    expect(heard).toEqual([{ progress: 1, message: 'x'.repeat(PROGRESS_MESSAGE_MAX) }]);
    const failing = progressReporter(() => {
      throw new Error('front end gone');
    });
    expect(() => failing({ progress: 1 })).not.toThrow();
  });
});
