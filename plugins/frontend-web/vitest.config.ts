import { defineProject } from 'vitest/config';
import { defaultServerConditions } from 'vite';

export default defineProject({
  ssr: { resolve: { conditions: ['@nodwyn/source', ...defaultServerConditions] } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'app/src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['reflect-metadata'],
    // The end-to-end tests run the real daemon and the built console: build both first.
    globalSetup: ['test/build-once.ts'],
    testTimeout: 30_000,
  },
});
