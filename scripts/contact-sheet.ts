/**
 * Regenerates the pictures of real outputs in the README and docs/, on the photographs of test/fixtures/photos (or TITLECARD_PHOTOS)
 * (credits in the README):
 * - docs/contact-sheet.jpg: the four templates (columns: bottom-left, left, right, split) at the three
 *   aspects (rows: og, square, portrait);
 * - docs/scripts.jpg: titles in eight scripts, with emoji, as og cards.
 *
 * Usage: npx tsx scripts/contact-sheet.ts
 */
import { readFileSync } from 'node:fs';
import sharp, { type OverlayOptions } from 'sharp';
import { loadFontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import type { Aspect } from '../src/domain/design.js';
import { BENCH_PHOTOS_DIR, photoPath } from '../test/support/photos.js';

const PHOTOS = BENCH_PHOTOS_DIR;
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
          photo: 'plasma_Path.jpg',
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
          photo: 'plasma_Canopee.png',
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
          photo: 'plasma_Path.jpg',
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
    const out = await renderer.render(readFileSync(photoPath(tile.photo, PHOTOS)), options);
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

const scripts: { photo: string; title: string; subtitle: string; template: string }[] = [
  {
    photo: 'plasma_Path.jpg',
    title: 'React 19 في الإنتاج: ما الذي تغيّر؟',
    subtitle: 'مدونة الهندسة · ٨ دقائق',
    template: 'bottom-left',
  },
  {
    photo: 'seeding_by_Clements_Engelhardt.jpg',
    title: 'שלום עולם: מדריך למתחילים',
    subtitle: 'פרק ראשון',
    template: 'right',
  },
  { photo: 'Dragonfly_by_Bolly.jpg', title: 'हिन्दी में सुंदर शीर्षक', subtitle: 'नया लेख', template: 'left' },
  {
    photo: 'mate_RainDrops.jpg',
    title: 'ฝนตกที่สวนหลังบ้านเมื่อเช้านี้',
    subtitle: 'บันทึกประจำวัน',
    template: 'bottom-left',
  },
  {
    photo: 'Kleiber_by_Lukas_Baubkus.jpg',
    title: '新しいリリースのお知らせ',
    subtitle: 'バージョン 4.0 の新機能',
    template: 'left',
  },
  {
    photo: 'plasma_Canopee.png',
    title: '我们如何把构建时间缩短一半',
    subtitle: '工程博客',
    template: 'bottom-left',
  },
  {
    photo: 'friends_by_Aitzol_Berasategi.jpg',
    title: '우리 팀의 새 얼굴들 🐶🐶',
    subtitle: '사무실 소식',
    template: 'split',
  },
  {
    photo: 'seeding_by_Clements_Engelhardt.jpg',
    title: 'Ship it! 🚀 Release day 👩🏽‍💻🎉 🇯🇵🇧🇷',
    subtitle: 'Changelog · Ελληνικά · Русский',
    template: 'bottom-left',
  },
];
const sheet: OverlayOptions[] = [];
const SCRIPT_TILE = 400;
for (const [i, tile] of scripts.entries()) {
  const options = generateOptionsSchema.parse({
    title: tile.title,
    subtitle: tile.subtitle,
    template: tile.template,
    fileFormat: 'png',
  });
  const out = await renderer.render(readFileSync(photoPath(tile.photo, PHOTOS)), options);
  sheet.push({
    input: await sharp(out.image).resize(SCRIPT_TILE).png().toBuffer(),
    left: GAP + (i % 2) * (SCRIPT_TILE + GAP),
    top: GAP + Math.floor(i / 2) * (210 + GAP),
  });
}
const sheetWidth = GAP + 2 * (SCRIPT_TILE + GAP);
const sheetHeight = GAP + Math.ceil(scripts.length / 2) * (210 + GAP);
await sharp({ create: { width: sheetWidth, height: sheetHeight, channels: 3, background: '#f4f4f2' } })
  .composite(sheet)
  .jpeg({ quality: 84, mozjpeg: true })
  .toFile(new URL('../docs/scripts.jpg', import.meta.url).pathname);
console.log(`docs/scripts.jpg: ${sheetWidth}×${sheetHeight}`);
