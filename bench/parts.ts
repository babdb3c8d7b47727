/**
 * Where a card's CPU goes beside the floor (issue 28's throughput): in this process, with no HTTP,
 * JPEG cards 4 at a time from one photo through the floor (engines.ts) and through the renderer as
 * the service runs it, then with its text shadow off, its gradient off, and both off. Interleaved
 * rounds; medians of the cards per second and of the CPU per card (this process's, every thread:
 * `process.cpuUsage`). Set beside the server's cards per second of `--http`, the difference between
 * the server and the renderer alone is what HTTP, the upload and the store cost.
 *
 *   npm run bench -- --parts [--photos mate_RainDrops.jpg] [--runs 5]
 */
import type { FontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { warmUp } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import { floorEngine, SUBTITLE, TITLE } from './engines.js';
import { median, runInFlight } from './stats.js';

/** Cards a round makes with each variant, 4 in flight. */
const CARDS = 60;
const IN_FLIGHT = 4;

export async function partFigures(
  fonts: FontLibrary,
  name: string,
  photo: Buffer,
  rounds: number,
  print: (line: string) => void,
): Promise<void> {
  const renderer = createRenderer(fonts);
  await warmUp(renderer);
  const variant = (extra: { textShadow?: boolean; gradient?: boolean }) => {
    const options = generateOptionsSchema.parse({
      title: TITLE,
      subtitle: SUBTITLE,
      fileFormat: 'jpeg',
      ...extra,
    });
    return () => renderer.render(photo, options);
  };
  const floor = floorEngine();
  const variants: [string, () => Promise<unknown>][] = [
    ['the floor (decode, cover crop, two encodes)', () => floor(photo, 'jpeg')],
    ['the renderer, as the service runs it', variant({})],
    ['  text shadow off', variant({ textShadow: false })],
    ['  gradient off', variant({ gradient: false })],
    ['  both off', variant({ textShadow: false, gradient: false })],
  ];
  for (const [, make] of variants) for (let i = 0; i < 4; i++) await make();
  const perSecond = variants.map(() => [] as number[]);
  const cpuMs = variants.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (const [i, [, make]] of variants.entries()) {
      const cpu = process.cpuUsage();
      const seconds = await runInFlight(make, IN_FLIGHT, CARDS);
      const used = process.cpuUsage(cpu);
      perSecond[i]?.push(CARDS / seconds);
      cpuMs[i]?.push((used.user + used.system) / 1000 / CARDS);
    }
  const floorCards = median(perSecond[0] ?? []);
  print(
    `\nIn one process, ${IN_FLIGHT} at a time, ${CARDS} JPEG cards of ${name} a round, ${rounds} rounds; medians:`,
  );
  for (const [i, [label]] of variants.entries()) {
    const cards = median(perSecond[i] ?? []);
    print(
      `  ${label.padEnd(44)} ${cards.toFixed(1).padStart(5)} cards/s (${(cards / floorCards).toFixed(2)} of the floor), ${median(cpuMs[i] ?? []).toFixed(1)} ms of CPU a card`,
    );
  }
}
