/**
 * `npm run bench`: how fast Titlecard renders, on the photographs of test/fixtures/photos (or of the
 * folder `TITLECARD_PHOTOS` names, such as the full-size originals: test/support/photos.ts).
 *
 *   npm run bench [-- --runs 5]   each render stage per photo and format (medians after a warm-up),
 *                                 the subject detector per photo (subjects.ts),
 *                                 the event-loop delay while rendering, two renders at a time.
 *   npm run bench -- --compare    the same job through the floor, Titlecard, satori + resvg and
 *                                 takumi, interleaved (compare.ts); then one server through a
 *                                 session (http.ts): every photo × format, HTTP throughput at 1, 4
 *                                 and 8 in flight against the floor's, 16 uploads of 10 MB at once,
 *                                 and its high-water resident memory over the whole session.
 *   npm run bench -- --encoders   encoder settings by speed and size (encoders.ts).
 *   npm run bench -- --http       only the server session.
 *   npm run bench -- --listing    a page of an account's images at 1k, 100k and 1M images (listing.ts).
 *   npm run bench -- --batches    200 cards as synchronous requests and as one batch (batches.ts).
 *   npm run bench -- --templates  the blog template of docs/templates.md against bottom-left (templates.ts).
 *   npm run bench -- --parts      the renderer beside the floor in one process, with its shadow and
 *                                 gradient off in turn: where a card's CPU goes (parts.ts).
 *   npm run bench -- --attack     another account's card while one account sends free previews of
 *                                 64-megapixel photos or loops card_image (attack.ts, issue 55).
 *   npm run bench -- --crawlers   a card that exists, fetched by the platforms' crawlers through a
 *                                 site link and its content-hashed URL: p50, p95 (crawlers.ts).
 *
 * Options: --photos a,b (file names, default all), --formats png,jpeg,webp; --throughput a,b: the
 * photos of the server's throughput (default mate_RainDrops.jpg,Dragonfly_by_Bolly.jpg).
 *
 * `npm run bench` runs this file with `MALLOC_ARENA_MAX=2`, as `npm start` runs the server (docs/configuration.md), and sets V8's heap growing factor as `titlecard serve` does (src/heap.ts), so
 * that its figures are those of the service.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadFontLibrary } from '../src/domain/render/index.js';
import { layoutText } from '../test/support/layout.js';
import { createRenderer, type RenderTimings } from '../src/domain/render/index.js';
import { warmUp } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import { tuneHeapGrowing } from '../src/heap.js';
import { compare, rgbaPngOf, webpOf } from './compare.js';
import { encoderTable } from './encoders.js';
import { listingFigures } from './listing.js';
import { batchFigures } from './batches.js';
import { subjectFigures } from './subjects.js';
import { templateFigures } from './templates.js';
import { partFigures } from './parts.js';
import { attackFigures } from './attack.js';
import { crawlerFigures } from './crawlers.js';
import { FORMATS, SUBTITLE, TITLE, type Format } from './engines.js';
import { serverSession, tenMegabytePhoto } from './http.js';
import { delayLine, eventLoopDelay, median } from './stats.js';
import { BENCH_PHOTOS_DIR, photoPath } from '../test/support/photos.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    compare: { type: 'boolean', default: false },
    encoders: { type: 'boolean', default: false },
    http: { type: 'boolean', default: false },
    listing: { type: 'boolean', default: false },
    batches: { type: 'boolean', default: false },
    templates: { type: 'boolean', default: false },
    parts: { type: 'boolean', default: false },
    attack: { type: 'boolean', default: false },
    crawlers: { type: 'boolean', default: false },
    photos: { type: 'string' },
    formats: { type: 'string' },
    throughput: { type: 'string', default: 'mate_RainDrops.jpg,Dragonfly_by_Bolly.jpg' },
  },
});
tuneHeapGrowing();
const RUNS = Number(values.runs);
const PHOTOS = BENCH_PHOTOS_DIR;
const FILES = readdirSync(PHOTOS)
  .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
  .filter((f) => !values.photos || values.photos.split(',').includes(f))
  .sort();
const formats = (values.formats?.split(',') ?? FORMATS) as Format[];
const print = (line: string) => console.log(line);

const t0 = performance.now();
const fonts = loadFontLibrary();
const fontLoad = performance.now() - t0;
print(
  `Titlecard render benchmark, ${new Date().toISOString().slice(0, 10)}, ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}.`,
);

const photos = new Map<string, Buffer>();
for (const f of FILES) photos.set(f, readFileSync(photoPath(f, PHOTOS)));

if (values.encoders) {
  await addMadePhotos();
  await encoderTable(photos, print);
} else if (values.listing) {
  await listingFigures(print);
} else if (values.batches) {
  const name = values.photos?.split(',')[0] ?? 'mate_RainDrops.jpg';
  await batchFigures(photos.get(name) ?? readFileSync(photoPath(name, PHOTOS)), name, print);
} else if (values.templates) {
  await templateFigures(fonts, photos, formats, RUNS, print);
} else if (values.parts) {
  const name = values.photos?.split(',')[0] ?? 'mate_RainDrops.jpg';
  await partFigures(fonts, name, photos.get(name) ?? readFileSync(photoPath(name, PHOTOS)), RUNS, print);
} else if (values.attack) {
  await attackFigures(readFileSync(photoPath('Kleiber_by_Lukas_Baubkus.jpg', PHOTOS)), print);
} else if (values.crawlers) {
  await crawlerFigures(readFileSync(photoPath('mate_RainDrops.jpg', PHOTOS)), print);
} else if (values.http) {
  await addMadePhotos();
  await serverFigures();
} else if (values.compare) {
  await addMadePhotos();
  // The event loop first, while the process holds only what the service holds: measured after
  // the comparison (satori's and takumi's heap and garbage in the process too), the same renders
  // once showed a 34 ms maximum; measured first, 19.5 ms.
  const renderer = createRenderer(fonts);
  await warmUp(renderer);
  const delay = await eventLoopDelay(() => renderAll(renderer, 1));
  print(`${RUNS} interleaved rounds per photo and format after a warm-up round; medians.`);
  // Titlecard's renders below look at each photo's subjects once (focus auto: the first round);
  // what a photo not seen before costs is measured here.
  await subjectFigures(photos, RUNS, print);
  await compare(fonts, photos, RUNS, formats, print);
  print(`\nEvent-loop delay while rendering every photo × format one at a time: ${delayLine(delay)}.`);
  await serverFigures();
} else {
  await stages();
}

/** WebP input, and a PNG with alpha, made from a photo: the fixtures hold JPEG and an opaque PNG only. */
async function addMadePhotos() {
  const first = photos.get('mate_RainDrops.jpg');
  if (!first) return;
  photos.set('mate_RainDrops.webp (from the jpg)', await webpOf(first));
  photos.set('mate_RainDrops RGBA.png (from the jpg)', await rgbaPngOf(first));
}

/** One `titlecard serve` through a session (http.ts): every photo × format, throughput, large uploads. */
async function serverFigures() {
  await serverSession(
    {
      photos,
      formats,
      throughputPhotos: new Map(
        values.throughput.split(',').map((f) => [f, readFileSync(photoPath(f, PHOTOS))]),
      ),
      levels: [1, 4, 8],
      total: RUNS * 8,
      rounds: RUNS * 4,
      large: await tenMegabytePhoto(readFileSync(photoPath('Dragonfly_by_Bolly.jpg', PHOTOS))),
      clients: 16,
    },
    print,
  );
}

/** Renders every photo in every format `runs` times. */
async function renderAll(renderer: ReturnType<typeof createRenderer>, runs: number) {
  for (const fileFormat of formats)
    for (const input of photos.values())
      for (let i = 0; i < runs; i++)
        await renderer.render(
          input,
          generateOptionsSchema.parse({ title: TITLE, subtitle: SUBTITLE, fileFormat }),
        );
}

async function stages() {
  const renderer = createRenderer(fonts);
  print(
    `Font set (nine families + Hebrew, Arabic, Devanagari, Thai) loaded at start-up in ${fontLoad.toFixed(1)} ms.`,
  );
  // First use of the large fallback fonts: loaded once per process, when a title first needs them.
  const firstUse: string[] = [];
  const photo = photos.values().next().value as Buffer;
  // As `titlecard serve` does before it listens.
  const warming = performance.now();
  await warmUp(renderer);
  print(`Warm-up at start-up (four throw-away cards): ${(performance.now() - warming).toFixed(0)} ms.`);
  const firstDelay = await eventLoopDelay(async () => {
    for (const [what, title] of [
      ['CJK (Noto Sans SC)', '我们如何把构建时间缩短一半'],
      ['CJK (Noto Sans JP)', '新しいリリースのお知らせ'],
      ['CJK (Noto Sans KR)', '한국어 제목'],
      ['emoji (Noto Color Emoji)', 'Ship it 🚀'],
    ] as const) {
      const started = performance.now();
      await renderer.render(photo, generateOptionsSchema.parse({ title, subtitle: SUBTITLE }));
      firstUse.push(`${what} ${(performance.now() - started).toFixed(0)} ms`);
    }
  });
  print(
    `First render needing a large fallback font (loaded then, once per process): ${firstUse.join('; ')}.`,
  );
  print(`Event-loop delay during those four renders: ${delayLine(firstDelay)}.`);

  // Layout of a 200-character title (shaping, line breaking, automatic size), after warm-up.
  const long200 = {
    latin:
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut a',
    cjk: '我们如何把构建时间缩短一半，并且更稳定。'.repeat(10),
    arabic: 'مرحبا بالعالم: كيف نكتب عناوين جميلة تقرأ بوضوح على أي صورة، '.repeat(4).slice(0, 200),
  };
  const layoutTimes: string[] = [];
  for (const [name, title] of Object.entries(long200)) {
    const lay = () =>
      layoutText(fonts, { aspect: 'og', placement: { template: 'left' }, title, font: 'arial' });
    for (let i = 0; i < 3; i++) lay();
    const runs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      lay();
      runs.push(performance.now() - started);
    }
    layoutTimes.push(`${name} ${median(runs).toFixed(1)} ms`);
  }
  print(
    `Layout of a 200-character title, template left, auto size (median of 20): ${layoutTimes.join('; ')}.\n`,
  );
  await subjectFigures(photos, RUNS, print);

  const stageNames: (keyof RenderTimings)[] = [
    'decode',
    'layout',
    'tones',
    'overlay',
    'composite',
    'encode',
    'thumbnail',
  ];
  print(
    'Stages overlap: the text is laid out and rasterised (overlay) while the photo decodes, and the card and its thumbnail encode at once.',
  );
  const ms = (v: number) => v.toFixed(1).padStart(7);
  const delay = await eventLoopDelay(async () => {
    for (const fileFormat of formats) {
      print(`fileFormat=${fileFormat}, aspect og, template bottom-left, with subtitle`);
      print(
        `${'photo'.padEnd(36)}${stageNames.map((s) => s.padStart(10)).join('')}${'total'.padStart(10)}${'bytes'.padStart(10)}`,
      );
      const totals: number[] = [];
      for (const [file, input] of photos) {
        const options = generateOptionsSchema.parse({ title: TITLE, subtitle: SUBTITLE, fileFormat });
        await renderer.render(input, options); // warm-up
        const runs: RenderTimings[] = [];
        const walls: number[] = [];
        let bytes = 0;
        for (let i = 0; i < RUNS; i++) {
          const started = performance.now();
          const out = await renderer.render(input, options);
          walls.push(performance.now() - started);
          runs.push(out.timings);
          bytes = out.image.length;
        }
        const wall = median(walls);
        totals.push(wall);
        print(
          `${file.padEnd(36)}${stageNames.map((s) => `${ms(median(runs.map((r) => r[s])))}   `).join('')}${ms(wall)}   ${String(bytes).padStart(10)}`,
        );
      }
      print(`${'median of photos'.padEnd(36)}${' '.repeat(stageNames.length * 10)}${ms(median(totals))}\n`);
    }
  });
  print(`Event-loop delay while rendering one at a time: ${delayLine(delay)}.`);

  // Two renders at once: throughput on the 2-core machine.
  const input = photos.get('mate_RainDrops.jpg') ?? photo;
  const options = generateOptionsSchema.parse({ title: TITLE, fileFormat: 'jpeg' });
  const n = RUNS * 4;
  const started = performance.now();
  const two = await eventLoopDelay(async () => {
    for (let i = 0; i < n; i += 2)
      await Promise.all([renderer.render(input, options), renderer.render(input, options)]);
  });
  const elapsed = performance.now() - started;
  print(
    `Two at a time (jpeg): ${(n / (elapsed / 1000)).toFixed(1)} renders/s; event-loop delay ${delayLine(two)}.`,
  );
  const mem = process.memoryUsage();
  print(
    `Memory after the run: rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB.`,
  );
}
