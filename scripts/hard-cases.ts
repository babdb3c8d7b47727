/**
 * The hard cases of issue 42 as one row of cards, to compare a checkout with an earlier one
 * (docs/hard-cases.jpg is two such rows, before and after):
 *   1. a 194-character title, template left, square;
 *   2. colorMode black, template left, portrait, on a photo with sky;
 *   3. colorMode custom #FF7F50 (coral), bottom-left, og;
 *   4. an Arabic subtitle with word-final ي (في بي عربي), og;
 *   5. a face: the astronaut, og, default crop and template.
 *
 * Usage: npx tsx scripts/hard-cases.ts OUT.png [LABEL]
 *        npx tsx scripts/hard-cases.ts --sheet BEFORE.png AFTER.png   (writes docs/hard-cases.jpg)
 * Run the first form in each checkout (copy this file and test/fixtures/subjects into the earlier
 * one), then the second here.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { loadFontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';

const TILE = 260;
const GAP = 10;
const fixture = (path: string) => readFileSync(new URL(`../test/fixtures/${path}`, import.meta.url));

const CASES: { label: string; photo: string; options: Record<string, unknown> }[] = [
  {
    label: '194 characters, left, square',
    photo: 'photos/seeding_by_Clements_Engelhardt.jpg',
    options: {
      title:
        'How a team of four rebuilt its release pipeline in a month, halved its build times, and learned to ship on Fridays again: the tools we chose, the habits we kept, and the mistakes we made',
      template: 'left',
      aspect: 'square',
    },
  },
  {
    label: 'colorMode black, left, portrait',
    photo: 'photos/Kleiber_by_Lukas_Baubkus.jpg',
    options: { title: 'Birds of the old forest', template: 'left', aspect: 'portrait', colorMode: 'black' },
  },
  {
    label: 'custom #FF7F50, bottom-left',
    photo: 'photos/Kleiber_by_Lukas_Baubkus.jpg',
    options: { title: 'Birds of the old forest', colorMode: 'custom', colorHex: '#FF7F50' },
  },
  {
    label: 'Arabic subtitle (في بي عربي)',
    photo: 'photos/plasma_Path.jpg',
    options: { title: 'مرحبا بالعالم', subtitle: 'في بي عربي: كيف نكتب عناوين جميلة' },
  },
  {
    label: 'a face, default crop',
    photo: 'subjects/astronaut_Eileen_Collins_NASA.jpg',
    options: { title: 'Fifty years of flight', subtitle: 'An interview' },
  },
];

/** The cards of {@link CASES}, each scaled to a tile `TILE` px wide, side by side, tops aligned. */
async function row(): Promise<Buffer> {
  const renderer = createRenderer(loadFontLibrary());
  const tiles: { input: Buffer; left: number; top: number }[] = [];
  let height = 0;
  for (const [i, c] of CASES.entries()) {
    const card = await renderer.render(
      fixture(c.photo),
      generateOptionsSchema.parse({ ...c.options, fileFormat: 'png' }),
    );
    const tile = await sharp(card.image).resize(TILE).png().toBuffer({ resolveWithObject: true });
    tiles.push({ input: tile.data, left: i * (TILE + GAP), top: 0 });
    height = Math.max(height, tile.info.height);
  }
  return sharp({
    create: { width: CASES.length * (TILE + GAP) - GAP, height, channels: 3, background: '#ffffff' },
  })
    .composite(tiles)
    .png()
    .toBuffer();
}

const args = process.argv.slice(2);
if (args[0] === '--sheet') {
  const [before, after] = [readFileSync(args[1] as string), readFileSync(args[2] as string)];
  const meta = await Promise.all([sharp(before).metadata(), sharp(after).metadata()]);
  const width = Math.max(meta[0].width ?? 0, meta[1].width ?? 0);
  const label = (text: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="28"><text x="0" y="20" font-family="sans-serif" font-size="18">${text}</text></svg>`,
    );
  const heading = CASES.map((c) => c.label).join('  ·  ');
  const h0 = meta[0].height ?? 0;
  await sharp({
    create: { width, height: 28 * 3 + h0 + (meta[1].height ?? 0) + GAP, channels: 3, background: '#ffffff' },
  })
    .composite([
      { input: label(heading), left: 0, top: 0 },
      { input: label('Before (main at the start of the work on issue 42)'), left: 0, top: 28 },
      { input: before, left: 0, top: 56 },
      { input: label('After'), left: 0, top: 56 + h0 + GAP / 2 },
      { input: after, left: 0, top: 84 + h0 + GAP },
    ])
    .jpeg({ quality: 85 })
    .toFile(new URL('../docs/hard-cases.jpg', import.meta.url).pathname);
} else {
  await sharp(await row()).toFile(args[0] ?? 'hard-cases.png');
}
