/**
 * What the subject detector adds to a process's resident memory (ONNX Runtime, its models and
 * arena, the worker's V8 isolate), run by subjects.ts in a process of its own: RSS before it
 * starts, once loaded, after 30 photos it has not seen (the cat of test/fixtures/subjects, its copy
 * made by decode.ts `findSubjects`), and once ended (its worker terminated, the allocator trimmed).
 * Prints one line.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSubjectDetector, findSubjects } from '../src/domain/render/index.js';

const LOOKS = 30;
const photo = readFileSync(
  new URL('../test/fixtures/subjects/cat_Chelsea_by_Stefan_van_der_Walt.jpg', import.meta.url),
);
const rss = () => process.memoryUsage().rss / 2 ** 20;
// libvips warmed up first, so that its own memory is not counted as the detector's.
await findSubjects(photo, photo, {
  ...createSubjectDetector(),
  detect: async (_, small) => (await small(), []),
});
await sleep(100);
const before = rss();
const detector = createSubjectDetector();
await detector.warmUp();
const loaded = rss();
for (let i = 0; i < LOOKS; i++)
  await findSubjects(photo, Buffer.concat([photo, Buffer.from(`@${i}`)]), detector);
const looked = rss();
await detector.close();
await sleep(300);
const more = (mib: number) => `+${(mib - before).toFixed(0)}`;
console.log(
  `A detector's resident memory (a process of its own), MiB: ${more(loaded)} loaded, ${more(looked)} after ${LOOKS} photos, ${more(rss())} once ended`,
);
process.exit(0);
