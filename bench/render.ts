/**
 * `npm run bench`: times each render stage on the photographs of ../shared/fixtures/photos, and the
 * longest the event loop was blocked while rendering. One render at a time, then two at once (the
 * machine has 2 cores). Reports medians over RUNS renders per photo and format, after one warm-up.
 *
 * Usage: npm run bench [-- --runs 5]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadFontLibrary } from '../src/domain/render/fonts.js';
import { layoutText } from '../src/domain/render/layout.js';
import { createRenderer, type RenderTimings } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/schemas.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const PHOTOS = new URL('../../shared/fixtures/photos/', import.meta.url);
const FILES = readdirSync(PHOTOS)
  .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
  .sort();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const ms = (v: number) => v.toFixed(1).padStart(7);

/**
 * Longest the event loop went without running a 1 ms timer while `fn` ran: how long the main thread
 * was blocked at a stretch (a timer callback can only run when nothing else holds the thread).
 */
async function maxBlocked<T>(fn: () => Promise<T>): Promise<{ result: T; maxGap: number }> {
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  try {
    const result = await fn();
    return { result, maxGap };
  } finally {
    clearInterval(timer);
  }
}

const firstUse: string[] = [];
const t0 = performance.now();
const fonts = loadFontLibrary();
const fontLoad = performance.now() - t0;
const renderer = createRenderer(fonts);

// First use of the large fallback fonts: loaded once per process, when a title first needs them.
for (const [what, text] of [
  ['CJK (Noto Sans SC Bold)', '我们如何把构建时间缩短一半'],
  ['CJK (Noto Sans JP Bold)', '新しいリリースのお知らせ'],
  ['CJK (Noto Sans KR Bold)', '한국어 제목'],
  ['emoji (Noto Color Emoji)', 'Ship it 🚀'],
] as const) {
  const started = performance.now();
  layoutText(fonts, { aspect: 'og', placement: { template: 'bottom-left' }, title: text, font: 'arial' });
  firstUse.push(`${what}: ${(performance.now() - started).toFixed(1)} ms`);
}
// Layout of a 200-character title (shaping, line breaking, automatic size), after warm-up.
const long200 = {
  latin:
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut a',
  cjk: '我们如何把构建时间缩短一半，并且更稳定。'.repeat(10),
  arabic: 'مرحبا بالعالم: كيف نكتب عناوين جميلة تقرأ بوضوح على أي صورة، '.repeat(4).slice(0, 200),
};
const layoutTimes: string[] = [];
for (const [name, title] of Object.entries(long200)) {
  for (let i = 0; i < 3; i++)
    layoutText(fonts, { aspect: 'og', placement: { template: 'left' }, title, font: 'arial' });
  const runs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    layoutText(fonts, { aspect: 'og', placement: { template: 'left' }, title, font: 'arial' });
    runs.push(performance.now() - started);
  }
  layoutTimes.push(`${name} ${median(runs).toFixed(1)} ms`);
}
const title = 'How we cut our build times in half with a smarter cache';
const stages: (keyof RenderTimings)[] = [
  'decode',
  'layout',
  'tones',
  'overlay',
  'composite',
  'encode',
  'thumbnail',
];

console.log(`Titlecard render benchmark: ${RUNS} runs per photo and format after a warm-up; medians in ms.`);
console.log(
  `Font set (nine families + Hebrew, Arabic, Devanagari, Thai) loaded once at start-up in ${fontLoad.toFixed(1)} ms.`,
);
console.log(`First use of a large fallback font (then cached for the process): ${firstUse.join('; ')}.`);
console.log(
  `Layout of a 200-character title, template left, auto size (median of 20): ${layoutTimes.join('; ')}.\n`,
);

let blockedOne = 0;
for (const fileFormat of ['png', 'jpeg', 'webp'] as const) {
  console.log(`fileFormat=${fileFormat}, aspect og, template bottom-left, with subtitle`);
  console.log(
    `${'photo'.padEnd(36)}${stages.map((s) => s.padStart(10)).join('')}${'total'.padStart(10)}${'bytes'.padStart(10)}`,
  );
  const totals: number[] = [];
  for (const file of FILES) {
    const input = readFileSync(new URL(file, PHOTOS));
    const options = generateOptionsSchema.parse({
      title,
      subtitle: 'Engineering blog · 8 min read',
      fileFormat,
    });
    await renderer.render(input, options); // warm-up
    const runs: RenderTimings[] = [];
    const walls: number[] = [];
    let bytes = 0;
    const { maxGap } = await maxBlocked(async () => {
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        const out = await renderer.render(input, options);
        walls.push(performance.now() - start);
        runs.push(out.timings);
        bytes = out.image.length;
      }
    });
    blockedOne = Math.max(blockedOne, maxGap);
    const wall = median(walls);
    totals.push(wall);
    console.log(
      `${file.padEnd(36)}${stages.map((s) => `${ms(median(runs.map((r) => r[s])))}   `).join('')}${ms(wall)}   ${String(bytes).padStart(10)}`,
    );
  }
  console.log(`${'median of photos'.padEnd(36)}${' '.repeat(stages.length * 10)}${ms(median(totals))}\n`);
}
console.log(
  `Main thread blocked at most ${blockedOne.toFixed(1)} ms at a stretch while rendering one at a time.`,
);

// Two renders at once: throughput on the 2-core machine.
const input = readFileSync(new URL('mate_RainDrops.jpg', PHOTOS));
const options = generateOptionsSchema.parse({ title, fileFormat: 'jpeg' });
const n = RUNS * 4;
const start = performance.now();
const two = await maxBlocked(async () => {
  for (let i = 0; i < n; i += 2)
    await Promise.all([renderer.render(input, options), renderer.render(input, options)]);
});
const elapsed = performance.now() - start;
console.log(
  `Two at a time (mate_RainDrops.jpg, jpeg): ${(n / (elapsed / 1000)).toFixed(1)} renders/s; main thread blocked at most ${two.maxGap.toFixed(1)} ms at a stretch.`,
);
const mem = process.memoryUsage();
console.log(
  `Memory after the run: rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB.`,
);
