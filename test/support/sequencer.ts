/**
 * The order test files start in: the ones known to take longest first (the photo matrix, about a
 * minute each on 2 cores; the stdio connector's spawned processes; the process-level suites), then
 * vitest's own order. In a fresh clone vitest has no timings yet and would start them last, leaving
 * one core idle at the end of the run while the other finishes them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const HEAVY = [
  /photos-matrix/,
  /mcp\/stdio/,
  /http\/hardening/,
  /system\/(faults|signals|cli|batch-restart)/,
  /storage\/(faults|scale-out|queue)/,
];

export default class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = HEAVY.findIndex((r) => r.test(f.moduleId));
      return i < 0 ? HEAVY.length : i;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
