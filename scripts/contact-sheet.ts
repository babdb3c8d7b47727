/**
 * Regenerates docs/contact-sheet.jpg, the README's picture of real outputs: the four templates
 * (columns: bottom-left, left, right, split) at the three aspects (rows: og, square, portrait), on the
 * photographs of ../shared/fixtures/photos (credits in the README).
 *
 * Usage: npx tsx scripts/contact-sheet.ts
 */
import { readFileSync } from 'node:fs';
import sharp, { type OverlayOptions } from 'sharp';
import { loadFontLibrary } from '../src/domain/render/fonts.js';
import { createRenderer } from '../src/domain/render/index.js';
import { generateOptionsSchema, type Aspect } from '../src/domain/schemas.js';

const PHOTOS = new URL('../../shared/fixtures/photos/', import.meta.url);
const TILE_WIDTH = 300;
const GAP = 12;
const renderer = createRenderer(loadFontLibrary());

const rows: { aspect: Aspect; tiles: { photo: string; title: string; subtitle: string; font: string }[] }[] =
  [
    {
      aspect: 'og',
      tiles: [
        {
          photo: 'Kleiber_by_Lukas_Baubkus.jpg',
          title: 'How we cut our build times in half',
          subtitle: 'Engineering blog · 8 min read',
          font: 'inter',
        },
        {
          photo: 'plasma_Path_2560x1600.jpg',
          title: 'A quiet walk through the forest',
          subtitle: 'Photo essay',
          font: 'playfair-display',
        },
        {
          photo: 'Dragonfly_by_Bolly.jpg',
          title: 'Field notes on insects',
          subtitle: 'Issue 12',
          font: 'oswald',
        },
        {
          photo: 'seeding_by_Clements_Engelhardt.jpg',
          title: 'Spring release',
          subtitle: 'Everything new in version 4.0',
          font: 'montserrat',
        },
      ],
    },
    {
      aspect: 'square',
      tiles: [
        {
          photo: 'mate_RainDrops.jpg',
          title: 'Rain, and what it leaves behind',
          subtitle: 'A short story',
          font: 'lora',
        },
        {
          photo: 'friends_by_Aitzol_Berasategi.jpg',
          title: 'Meet the team',
          subtitle: 'Two new faces at the office',
          font: 'raleway',
        },
        {
          photo: 'plasma_Canopee_3840x2160.png',
          title: 'Designing with light',
          subtitle: 'Talk recording',
          font: 'roboto',
        },
        {
          photo: 'Kleiber_by_Lukas_Baubkus.jpg',
          title: 'Birds of the city',
          subtitle: 'A field guide for beginners',
          font: 'source-sans-pro',
        },
      ],
    },
    {
      aspect: 'portrait',
      tiles: [
        {
          photo: 'friends_by_Aitzol_Berasategi.jpg',
          title: 'Adoption day is Saturday',
          subtitle: 'Shelter news',
          font: 'arial',
        },
        {
          photo: 'seeding_by_Clements_Engelhardt.jpg',
          title: 'Small seeds, big ideas',
          subtitle: 'Newsletter',
          font: 'playfair-display',
        },
        {
          photo: 'plasma_Path_2560x1600.jpg',
          title: 'Trail running 101',
          subtitle: 'Gear, pace, and rest days',
          font: 'montserrat',
        },
        {
          photo: 'Dragonfly_by_Bolly.jpg',
          title: 'Macro week',
          subtitle: 'Seven days, one lens',
          font: 'inter',
        },
      ],
    },
  ];
const templates = ['bottom-left', 'left', 'right', 'split'];

const composites: OverlayOptions[] = [];
let top = GAP;
for (const row of rows) {
  let left = GAP;
  let rowHeight = 0;
  for (const [i, tile] of row.tiles.entries()) {
    const options = generateOptionsSchema.parse({
      title: tile.title,
      subtitle: tile.subtitle,
      template: templates[i],
      aspect: row.aspect,
      font: tile.font,
      fileFormat: 'png',
    });
    const out = await renderer.render(readFileSync(new URL(tile.photo, PHOTOS)), options);
    const scaled = await sharp(out.image).resize(TILE_WIDTH).png().toBuffer();
    const h = Math.round((TILE_WIDTH * out.height) / out.width);
    composites.push({ input: scaled, left, top });
    left += TILE_WIDTH + GAP;
    rowHeight = Math.max(rowHeight, h);
  }
  top += rowHeight + GAP;
}
const width = GAP + templates.length * (TILE_WIDTH + GAP);
await sharp({ create: { width, height: top, channels: 3, background: '#f4f4f2' } })
  .composite(composites)
  .jpeg({ quality: 84, mozjpeg: true })
  .toFile(new URL('../docs/contact-sheet.jpg', import.meta.url).pathname);
console.log(`docs/contact-sheet.jpg: ${width}×${top}`);
