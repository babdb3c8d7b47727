/**
 * The subject detector's cost (src/domain/render/photo/subjects.ts), for photos it has not seen, per
 * photo: the 300 px copy decoded from the file (decode.ts `findSubjects`, libjpeg's DCT scaling for
 * a JPEG), and apart the look itself, both models (BlazeFace and the SSD, on the detector's worker
 * thread) on that copy, which is what a card adds to its one decode (its copy comes from that
 * decode). Wall time, and CPU time of the whole process (every thread: libvips's, the worker's),
 * medians. Each run gives the detector's cache (by the bytes' hash) a key it has not seen.
 */
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findSubjects, processSubjectDetector, type SubjectDetector } from '../src/domain/render/index.js';
import { median } from './stats.js';

const run = promisify(execFile);

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
  const lookCpus: number[] = [];
  let seq = 0;
  for (const [file, bytes] of photos) {
    const walls: number[] = [];
    const cpu: number[] = [];
    const lookWalls: number[] = [];
    const lookCpu: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      // A key the detector's cache has not seen; the photo itself is the same.
      const unseen = Buffer.concat([bytes, Buffer.from(`#${seq++}`)]);
      // The process's detector, noting when the copy is ready: the look runs from there.
      let copied = { at: 0, cpu: process.cpuUsage() };
      const d = processSubjectDetector();
      const timed: SubjectDetector = {
        ...d,
        detect: (key, small) =>
          d.detect(key, async () => {
            const copy = await small();
            copied = { at: performance.now(), cpu: process.cpuUsage() };
            return copy;
          }),
      };
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const found = await findSubjects(bytes, unseen, timed);
      const end = performance.now();
      const c = process.cpuUsage(c0);
      const look = process.cpuUsage(copied.cpu);
      if (i === 0) continue; // its first look at this photo's size warms the worker's buffers
      walls.push(end - t0);
      cpu.push((c.user + c.system) / 1000);
      lookWalls.push(end - copied.at);
      lookCpu.push((look.user + look.system) / 1000);
      if (i === runs)
        rows.push(
          `${file.padEnd(36)}${median(walls).toFixed(1).padStart(8)}${median(cpu).toFixed(1).padStart(8)}${median(lookWalls).toFixed(1).padStart(8)}${median(lookCpu).toFixed(1).padStart(8)}   ${(found ?? []).map((s) => s.kind).join(', ') || '-'}`,
        );
    }
    cpus.push(median(cpu));
    lookCpus.push(median(lookCpu));
  }
  print(
    `Subject detection of a photo not seen before (median of ${runs}): from the file, wall and CPU ms (all threads); the look alone, wall and CPU; found`,
  );
  for (const row of rows) print(row);
  print(
    `${'median of photos (CPU)'.padEnd(44)}${median(cpus).toFixed(1).padStart(8)}${median(lookCpus).toFixed(1).padStart(16)}\n`,
  );
  print(await detectorMemory());
}

/**
 * What a detector adds to a process's resident memory, measured in a process of its own
 * (detector-memory.ts, with the server's malloc settings): its report line.
 */
async function detectorMemory(): Promise<string> {
  const script = fileURLToPath(new URL('./detector-memory.ts', import.meta.url));
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' },
  });
  return stdout.trim() + '\n';
}
