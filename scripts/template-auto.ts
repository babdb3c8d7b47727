/**
 * `template=auto` on the photographs of test/fixtures/photos (or TITLECARD_PHOTOS): for each, the saliency score
 * (src/domain/render/photo/saliency.ts; lower is calmer) of the text boxes of bottom-left, left and right
 * on the centred crop, the template the map alone chooses, the one a card with `template=auto`
 * took (its crop and choice knowing the subjects found), and a contact sheet of those cards
 * (docs/template-auto.jpg), og cards.
 *
 * Usage: npx tsx scripts/template-auto.ts
 */
import { readFileSync } from 'node:fs';
import sharp, { type OverlayOptions } from 'sharp';
import { decodeCover } from '../src/domain/render/index.js';
import { loadFontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { chooseTemplate } from '../src/domain/render/index.js';
import { layoutText } from '../test/support/layout.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import { ASPECTS } from '../src/domain/design.js';
import { PHOTO_FILES } from '../test/support/images.js';
import { BENCH_PHOTOS_DIR, photoPath } from '../test/support/photos.js';

const PHOTOS = BENCH_PHOTOS_DIR;
const fonts = loadFontLibrary();
const renderer = createRenderer(fonts);
const TILE = 400;
const GAP = 12;
const title = 'What we learned shipping every day for a year';
const subtitle = 'Engineering · 7 min read';

const composites: OverlayOptions[] = [];
const rows: string[] = [
  '| photo | bottom-left | left | right | chosen | chosen ÷ default | with the subjects |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];
let calmer = 0;
for (const [i, file] of PHOTO_FILES.entries()) {
  const input = readFileSync(photoPath(file, PHOTOS));
  const { width, height } = ASPECTS.og;
  const canvas = await decodeCover(input, width, height);
  const { template, scores } = chooseTemplate(canvas, (t) =>
    layoutText(fonts, { aspect: 'og', placement: { template: t }, title, subtitle, font: 'inter' }),
  );
  const s = (t: string) => (scores[t] ?? 0).toFixed(1);
  const ratio = (scores[template] ?? 0) / (scores['bottom-left'] ?? 1);
  if (template !== 'bottom-left') calmer++;
  // The card itself: the subject-aware crop (focus auto) and choice.
  const out = await renderer.render(
    input,
    generateOptionsSchema.parse({ title, subtitle, template: 'auto', font: 'inter', fileFormat: 'jpeg' }),
  );
  const found = (out.report.subjects ?? []).map((f) => f.kind).join(', ');
  rows.push(
    `| ${file} | ${s('bottom-left')} | ${s('left')} | ${s('right')} | ${template} | ${ratio.toFixed(2)} | ${out.report.template}${found ? ` (${found})` : ''} |`,
  );
  const tile = await sharp(out.image).resize(TILE).toBuffer();
  composites.push({
    input: tile,
    left: GAP + (i % 2) * (TILE + GAP),
    top: GAP + Math.floor(i / 2) * (210 + GAP),
  });
}
const sheetWidth = GAP + 2 * (TILE + GAP);
const sheetHeight = GAP + Math.ceil(PHOTO_FILES.length / 2) * (210 + GAP);
await sharp({ create: { width: sheetWidth, height: sheetHeight, channels: 3, background: '#ffffff' } })
  .composite(composites)
  .jpeg({ quality: 82 })
  .toFile(new URL('../docs/template-auto.jpg', import.meta.url).pathname);
process.stdout.write(
  `${rows.join('\n')}\n\nauto chose another template than bottom-left for ${calmer} of ${PHOTO_FILES.length} photos; wrote docs/template-auto.jpg\n`,
);
