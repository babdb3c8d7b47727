import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every core: vitest's default (cores - 1) ran the files one at a time on this project's
    // 2-core machines, 7 minutes instead of about 3.5.
    maxWorkers: availableParallelism(),
    globalSetup: ['test/support/servers.ts'],
  },
});
