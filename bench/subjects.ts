/**
 * The subject detector's cost (src/domain/render/photo/subjects.ts), for photos it has not seen: the
 * 300 px copy and both models (BlazeFace and the SSD, on the detector's worker thread), per photo.
 * Wall time, and CPU time of the whole process (every thread: libvips's, the worker's), medians.
 * Each run gives the detector's cache (by the bytes' hash) a key it has not seen; the photo and
 * its small copy are the service's own (decode.ts `findSubjects`).
 */
import { performance } from 'node:perf_hooks';
import { findSubjects } from '../src/domain/render/index.js';
import { processSubjectDetector } from '../src/domain/render/index.js';
import { median } from './stats.js';

export async function subjectFigures(
  photos: Map<string, Buffer>,
  runs: number,
  print: (line: string) => void,
) {
  const started = performance.now();
  await processSubjectDetector().warmUp();
  print(
    `Subject detector loaded (ONNX Runtime, two models) in ${(performance.now() - started).toFixed(0)} ms.`,
  );
  const rows: string[] = [];
  const cpus: number[] = [];
  let seq = 0;
  for (const [file, bytes] of photos) {
    const walls: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      // A key the detector's cache has not seen; the photo itself is the same.
      const unseen = Buffer.concat([bytes, Buffer.from(`#${seq++}`)]);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const found = await findSubjects(bytes, unseen);
      const c = process.cpuUsage(c0);
      if (i === 0) continue; // its first look at this photo's size warms the worker's buffers
      walls.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
      if (i === runs)
        rows.push(
          `${file.padEnd(36)}${median(walls).toFixed(1).padStart(8)}${median(cpu).toFixed(1).padStart(8)}   ${(found ?? []).map((s) => s.kind).join(', ') || '-'}`,
        );
    }
    cpus.push(median(cpu));
  }
  print(
    `Subject detection of a photo not seen before (median of ${runs}): wall ms, CPU ms (all threads), found`,
  );
  for (const row of rows) print(row);
  print(`${'median of photos (CPU)'.padEnd(44)}${median(cpus).toFixed(1).padStart(8)}\n`);
}
