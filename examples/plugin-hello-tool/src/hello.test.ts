import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { helloPlugin } from './index.js';

let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('the hello plugin', () => {
  it('greets through the guard', async () => {
    running = await startTestKernel({ plugins: [helloPlugin] });
    expect(await running.apply('hello', { name: 'Ada' })).toMatchObject({ ok: true, content: 'Hello, Ada!' });
  });
});
