/**
 * The heap growing factor `titlecard serve` sets (src/heap.ts): it must take effect although it is
 * set after V8 started, and a `--heap-growing-percent` given to node must win. V8 prints the limit
 * it sets after a full collection, with the factor used, under `--trace-gc-verbose`.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';

/** The factors V8 used after a forced full collection, in a child process that calls tuneHeapGrowing. */
function factorsAfterCollection(nodeFlags: string[]): { set: boolean; factors: number[] } {
  const script = [
    "import { tuneHeapGrowing } from './src/heap.ts';",
    'console.log(`set ${tuneHeapGrowing()}`);',
    'globalThis.gc();',
  ].join('\n');
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--trace-gc-verbose',
      ...nodeFlags,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  const factors = [...child.stdout.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)].map((m) =>
    Number(m[1]),
  );
  return { set: /^set true$/m.test(child.stdout), factors };
}

describe('the heap growing factor', () => {
  it('lets the old generation grow to twice its live size before the next full collection', () => {
    const { set, factors } = factorsAfterCollection([]);
    expect(set).toBe(true);
    expect(factors.length).toBeGreaterThan(0);
    expect(factors.every((f) => f === 2)).toBe(true);
  });

  it('leaves a factor given on the command line alone', () => {
    const { set, factors } = factorsAfterCollection(['--heap-growing-percent=30']);
    expect(set).toBe(false);
    expect(factors.length).toBeGreaterThan(0);
    expect(factors.every((f) => f === 1.3)).toBe(true);
  });
});
