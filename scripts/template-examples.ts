/**
 * Renders the worked templates of docs/templates.md (examples/templates/*.json) on the photographs
 * of test/fixtures/photos (or TITLECARD_PHOTOS) (credits in the README) into docs/templates.jpg: one row of cards,
 * blog, podcast and event, each filled as its docs section fills it.
 *
 * Usage: npx tsx scripts/template-examples.ts [--out DIR] (DIR also gets each card as a PNG)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadFontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import { fieldValues, imageVariableOf, parseTemplateDocument } from '../src/domain/render/index.js';
import { BENCH_PHOTOS_DIR, photoPath } from '../test/support/photos.js';

const ROOT = new URL('../', import.meta.url);
const PHOTOS = BENCH_PHOTOS_DIR;
const TILE_WIDTH = 600;
const GAP = 12;

/** Each example: its document, the photo, the request's texts and fields, and image variables' photos. */
export const EXAMPLES = [
  {
    file: 'blog',
    photo: 'Kleiber_by_Lukas_Baubkus.jpg',
    title: 'How we cut our build times in half',
    fields: { author: 'Ada Lovelace', category: 'Engineering' },
    images: { avatar: 'friends_by_Aitzol_Berasategi.jpg' },
  },
  {
    file: 'podcast',
    photo: 'plasma_Path.jpg',
    title: 'Why forests need fire',
    subtitle: 'with Dr. Mira Okafor',
    fields: { episode: '42', show: 'The Long Walk' },
    images: {},
  },
  {
    file: 'event',
    photo: 'seeding_by_Clements_Engelhardt.jpg',
    title: 'Spring Gardening Meetup',
    fields: { date: 'Sat 14 March · 10:00', place: 'Community Garden, Ghent' },
    images: {},
  },
] as const;

/** Renders one example to PNG bytes. */
export async function renderExample(
  example: (typeof EXAMPLES)[number],
  renderer = createRenderer(loadFontLibrary()),
) {
  const document = parseTemplateDocument(
    JSON.parse(readFileSync(new URL(`examples/templates/${example.file}.json`, ROOT), 'utf8')) as unknown,
  );
  const subtitle = 'subtitle' in example ? example.subtitle : undefined;
  const images = new Map<number, Buffer>();
  document.layers.forEach((layer, i) => {
    const name = layer.type === 'image' ? imageVariableOf(layer.source) : undefined;
    const file = name && (example.images as Record<string, string>)[name];
    if (file) images.set(i, readFileSync(photoPath(file, PHOTOS)));
  });
  const options = generateOptionsSchema.parse({ title: example.title, subtitle, aspect: document.aspect });
  const design = {
    id: `tpl_${example.file}`,
    document,
    values: fieldValues(document, { title: example.title, subtitle, fields: example.fields }),
    images,
    fonts: new Map(),
  };
  return renderer.render(readFileSync(photoPath(example.photo, PHOTOS)), { ...options, design });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('template-examples.ts')) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const renderer = createRenderer(loadFontLibrary());
  const cards = [];
  for (const example of EXAMPLES) {
    const card = await renderExample(example, renderer);
    if (values.out) {
      mkdirSync(values.out, { recursive: true });
      writeFileSync(path.join(values.out, `${example.file}.png`), card.image);
    }
    cards.push(await sharp(card.image).resize(TILE_WIDTH).toBuffer());
  }
  const tileHeight = Math.round((TILE_WIDTH * 630) / 1200);
  const sheet = await sharp({
    create: {
      width: cards.length * TILE_WIDTH + (cards.length + 1) * GAP,
      height: tileHeight + 2 * GAP,
      channels: 3,
      background: '#ffffff',
    },
  })
    .composite(cards.map((input, i) => ({ input, left: GAP + i * (TILE_WIDTH + GAP), top: GAP })))
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  writeFileSync(new URL('docs/templates.jpg', ROOT), sheet);
  console.log(`wrote docs/templates.jpg (${sheet.length} bytes)`);
}
