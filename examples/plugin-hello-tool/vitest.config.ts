import { defineProject } from 'vitest/config';
import { defaultServerConditions } from 'vite';

export default defineProject({
  ssr: { resolve: { conditions: ['@nodwyn/source', ...defaultServerConditions] } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['reflect-metadata'],
    // The packaging tests need the libraries' dist/ and the CLI bundle; build what is missing or stale first.
    globalSetup: ['test/build-first.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
