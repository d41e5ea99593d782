import { describe, expect, it } from 'vitest';
import { firstJsonObject } from './first-json-object.js';

describe('firstJsonObject', () => {
  it('finds the object in prose and in a code fence', () => {
    expect(firstJsonObject('Sure! {"score": 0.8} hope that helps')).toEqual({ score: 0.8 });
    expect(firstJsonObject('```json\n{"plan_needed": true}\n```')).toEqual({ plan_needed: true });
  });

  it('keeps braces and escaped quotes inside strings', () => {
    expect(firstJsonObject('{"feedback": "use {x} and \\"y\\" }", "score": 1}')).toEqual({ feedback: 'use {x} and "y" }', score: 1 });
  });

  it('skips braces that are not JSON, and an opener that never closes', () => {
    expect(firstJsonObject('set {x} first, then { "score": 0.5 }')).toEqual({ score: 0.5 });
    expect(firstJsonObject('{ oops {"score": 0.4}')).toEqual({ score: 0.4 });
  });

  it('returns undefined when there is no object', () => {
    expect(firstJsonObject('no json here')).toBeUndefined();
    expect(firstJsonObject('[1, 2]')).toBeUndefined();
    expect(firstJsonObject('{"score": ')).toBeUndefined();
  });
});
