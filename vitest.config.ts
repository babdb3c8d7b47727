import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import HeavyFirst from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Test files share each worker's module cache (no test mocks a module): their imports of the
    // app took 90 s of CPU over a run when every file started afresh, 15 s shared.
    isolate: false,
    // One worker more than the cores: vitest's default (cores - 1) ran the files one at a time on
    // this project's 2-core machines (7 minutes), and many tests wait on timers, sockets or child
    // processes without using a core (a header timeout, npx): a third worker fills those waits
    // (npm test in a plain clone: 4 min 05 s with two workers, 3 min 49 s with three).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: HeavyFirst },
    globalSetup: ['test/support/servers.ts'],
  },
});
