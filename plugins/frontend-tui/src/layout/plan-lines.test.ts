import { describe, expect, it } from 'vitest';
import { lineText } from '../terminal/wrap.js';
import { planLines, verdictText } from './plan-lines.js';

describe('the plan panel', () => {
  it('shows the verdict with its score, round and who gave it, then the numbered steps, wrapped under their numbers', () => {
    const lines = planLines(['Read the parser', 'Fix the off-by-one error in the field counter'], { approved: true, by: 'judge', round: 2, score: 0.86 }, 30);
    expect(lines.map(lineText)).toEqual(['┃ Plan · approved by judge · …', '┃ 1. Read the parser', '┃ 2. Fix the off-by-one error', '┃    in the field counter']);
    expect(lines[0]![0]!.style).toEqual({ fg: 'green' });
  });

  it('shows a plan sent back for revision in yellow, with the feedback', () => {
    const lines = planLines(['Delete everything'], { approved: false, by: 'judge', round: 1, score: 0.2, feedback: 'Too broad: name the files.' }, 60);
    expect(lines.map(lineText)).toEqual(['┃ Plan · to revise by judge · score 0.2 · round 1', '┃ 1. Delete everything', '┃ Too broad: name the files.']);
    expect(lines[0]![0]!.style).toEqual({ fg: 'yellow' });
  });

  it('says who approved a plan the person approved, without a score', () => {
    expect(verdictText({ approved: true, by: 'person', round: 1 })).toBe('approved by person · round 1');
  });
});
