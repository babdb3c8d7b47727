/**
 * Faces and animals left clear (issue 42, item 6), measured from outside: boxes drawn by hand on the
 * test photographs (test/fixtures/subjects, a person, a cameraman, a cat; the dogs of
 * test/fixtures/photos), the crop found in the card's pixels, and the text's ink found as where two
 * renders in different text colours differ.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Aspect } from '../../src/domain/design.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { createRenderer } from '../../src/domain/render/index.js';
import { findSubjects } from '../../src/domain/render/photo/decode.js';
import { HEAD_SHARE, subjectFocus, type Subject } from '../../src/domain/render/photo/subjects.js';
import { decode, photo, PHOTO_FILES } from '../support/images.js';
import { testFonts } from '../support/server.js';

const SUBJECTS_DIR = fileURLToPath(new URL('../fixtures/subjects/', import.meta.url));
const subjectPhoto = (name: string) => readFileSync(`${SUBJECTS_DIR}${name}`);

/** A box in a photo's pixels, [left, top, right, bottom], drawn by hand (looking at the photo). */
type Labelled = { kind: Subject['kind']; box: [number, number, number, number] };
const LABELS: { name: string; bytes: () => Buffer; size: [number, number]; subjects: Labelled[] }[] = [
  {
    name: 'astronaut',
    bytes: () => subjectPhoto('astronaut_Eileen_Collins_NASA.jpg'),
    size: [512, 512],
    subjects: [
      { kind: 'face', box: [170, 70, 280, 185] },
      { kind: 'person', box: [15, 15, 365, 512] },
    ],
  },
  {
    name: 'cameraman',
    bytes: () => subjectPhoto('cameraman_by_Lav_Varshney.jpg'),
    size: [512, 512],
    subjects: [
      { kind: 'face', box: [165, 105, 265, 210] },
      { kind: 'person', box: [0, 40, 310, 512] },
    ],
  },
  {
    name: 'cat',
    bytes: () => subjectPhoto('cat_Chelsea_by_Stefan_van_der_Walt.jpg'),
    size: [451, 300],
    subjects: [{ kind: 'cat', box: [0, 0, 451, 300] }],
  },
  {
    name: 'dogs',
    bytes: () => photo('friends_by_Aitzol_Berasategi.jpg'),
    size: [1065, 1600],
    subjects: [
      { kind: 'dog', box: [305, 350, 585, 810] },
      { kind: 'dog', box: [485, 710, 900, 1090] },
    ],
  },
];

const iou = (a: [number, number, number, number], b: [number, number, number, number]) => {
  const w = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const area = (r: typeof a) => (r[2] - r[0]) * (r[3] - r[1]);
  return (w * h) / (area(a) + area(b) - w * h);
};

const renderer = createRenderer(testFonts());
const render = (bytes: Buffer, over: Record<string, unknown>) =>
  renderer.render(bytes, generateOptionsSchema.parse({ fileFormat: 'png', title: 'A day at work', ...over }));

/**
 * The top edge (px of the photo scaled to the card's width) of the window a cover crop of a tall
 * photo kept, found by comparing a strip of the card's right edge with every offset of the scaled
 * photo (the text is on the left, no gradient is drawn).
 */
async function cropTop(bytes: Buffer, card: Buffer, width: number, height: number): Promise<number> {
  const scaled = await sharp(bytes)
    .rotate()
    .resize(width)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const drawn = await decode(card);
  const x0 = width - 60;
  let best = { top: -1, sad: Infinity };
  for (let top = 0; top + height <= scaled.info.height; top++) {
    let sad = 0;
    for (let y = 0; y < height; y += 3)
      for (let x = x0; x < width - 10; x += 3) {
        const i = ((top + y) * width + x) * 3;
        const j = (y * width + x) * drawn.channels;
        sad += Math.abs((scaled.data[i + 1] as number) - (drawn.data[j + 1] as number));
      }
    if (sad < best.sad) best = { top, sad };
  }
  return best.top;
}

/** Ink pixels of a card's text inside `boxes`: where the card in red and in blue text differ. */
async function inkOver(
  bytes: Buffer,
  over: Record<string, unknown>,
  boxes: { x: number; y: number; width: number; height: number }[],
) {
  const plain = { gradient: false, textShadow: false, colorMode: 'custom', ...over };
  const [red, blue] = await Promise.all([
    render(bytes, { ...plain, colorHex: '#FF0000' }),
    render(bytes, { ...plain, colorHex: '#0000FF' }),
  ]);
  const [a, b] = await Promise.all([decode(red.image), decode(blue.image)]);
  let count = 0;
  for (const box of boxes)
    for (let y = box.y; y < box.y + box.height; y++)
      for (let x = box.x; x < box.x + box.width; x++) {
        const i = (y * a.width + x) * a.channels;
        if (Math.abs((a.data[i] as number) - (b.data[i] as number)) > 40) count++;
      }
  return { count, report: red.report };
}

describe('subjects: faces, people, cats and dogs', () => {
  it('finds each labelled subject (IoU ≥ 0.5 with the hand-drawn box), and none in the photos without', async () => {
    for (const l of LABELS) {
      const found = (await findSubjects(l.bytes())) ?? [];
      const [w, h] = l.size;
      for (const want of l.subjects) {
        const hit = found.some(
          (f) =>
            f.kind === want.kind &&
            iou(want.box, [
              f.box.x * w,
              f.box.y * h,
              (f.box.x + f.box.width) * w,
              (f.box.y + f.box.height) * h,
            ]) >= 0.5,
        );
        expect(hit, `${l.name}: a ${want.kind} at ${want.box.join(',')} in ${JSON.stringify(found)}`).toBe(
          true,
        );
      }
    }
    // A bird, dandelions, foliage, a forest path, a render, a leaf: no face, person, cat or dog.
    for (const file of PHOTO_FILES.filter((f) => !f.startsWith('friends')))
      expect(await findSubjects(photo(file)), file).toEqual([]);
  });

  it('the default cover crop keeps a face whole where the centred crop cuts it, and the report names it', async () => {
    const astronaut = subjectPhoto('astronaut_Eileen_Collins_NASA.jpg');
    const [face] = LABELS[0]!.subjects;
    const scale = 1200 / 512;
    const [faceTop, faceBottom] = [face!.box[1] * scale, face!.box[3] * scale];
    const plain = { template: 'left', gradient: false, textShadow: false };
    const centred = await render(astronaut, { ...plain, focus: 'center' });
    const centredTop = await cropTop(astronaut, centred.image, 1200, 630);
    expect(centredTop, 'the centred crop cuts the face').toBeGreaterThan(faceTop);
    const auto = await render(astronaut, plain);
    const top = await cropTop(astronaut, auto.image, 1200, 630);
    expect(top, 'the face starts inside the card').toBeLessThanOrEqual(faceTop);
    expect(top + 630, 'and ends inside it').toBeGreaterThanOrEqual(faceBottom);
    expect(auto.report.subjects).toContainEqual(expect.objectContaining({ kind: 'face' }));
    // focus center looks for nothing, and says so.
    expect(centred.report.subjects).toBeNull();
  });

  it('the crop window moves the least that keeps a face whole, with its hair where that fits, without where not', () => {
    const face = (y0: number, h: number): Subject => ({
      kind: 'face',
      score: 0.9,
      box: { x: 0.4, y: y0, width: 0.2, height: h },
    });
    // A 800 × 1200 headshot on an og card keeps 35% of its height (1200 × 1800 scaled, 630 kept).
    const window = (f: { y: number }) => [f.y - 0.175, f.y + 0.175];
    expect(subjectFocus([], 800, 1200, 1200, 630)).toEqual({ x: 0.5, y: 0.5 });
    // The face and 40% of its height above (0.25 to 0.5) fit: the window holds both.
    const [top, bottom] = window(subjectFocus([face(0.3, 0.2)], 800, 1200, 1200, 630));
    expect(top).toBeLessThanOrEqual(0.22 + 1e-9);
    expect(bottom).toBeGreaterThanOrEqual(0.5 - 1e-9);
    // A face 0.3 high: with its hair (0.42) it does not fit, the face alone (0.3 to 0.6) does.
    const [top2, bottom2] = window(subjectFocus([face(0.3, 0.3)], 800, 1200, 1200, 630));
    expect(top2).toBeLessThanOrEqual(0.3 + 1e-9);
    expect(bottom2).toBeGreaterThanOrEqual(0.6 - 1e-9);
    // Already inside the centred window: it does not move.
    expect(subjectFocus([face(0.45, 0.1)], 800, 1200, 1200, 630).y).toBeCloseTo(0.5);
  });

  it('of two dogs one above the other, the default crop keeps both heads at every aspect where they fit, found in the pixels (issue 55, item 9)', async () => {
    const dogs = LABELS.find((l) => l.name === 'dogs')!;
    const bytes = dogs.bytes();
    const cases: [Aspect, number, number][] = [
      ['og', 1200, 630],
      ['square', 1080, 1080],
      ['portrait', 1080, 1350],
    ];
    for (const [aspect, width, height] of cases) {
      // The photo is scaled to the card's width and cropped top and bottom; a head is the upper
      // HEAD_SHARE of its dog's hand-drawn box.
      const scale = width / dogs.size[0];
      const heads = dogs.subjects.map((s) => [
        s.box[1] * scale,
        (s.box[1] + HEAD_SHARE * (s.box[3] - s.box[1])) * scale,
      ]);
      const from = Math.min(...heads.map((h) => h[0] as number));
      const to = Math.max(...heads.map((h) => h[1] as number));
      expect(to - from, `${aspect}: both heads fit in the card`).toBeLessThanOrEqual(height);
      const card = await render(bytes, { aspect, template: 'left', gradient: false, textShadow: false });
      const top = await cropTop(bytes, card.image, width, height);
      expect(top, `${aspect}: the upper head starts inside the card`).toBeLessThanOrEqual(from + 2);
      expect(top + height, `${aspect}: the lower head ends inside it`).toBeGreaterThanOrEqual(to - 2);
    }
  });

  it('template=auto never covers more of the subjects than another template would, split included (issue 55, item 9)', async () => {
    const cases: { bytes: Buffer; aspect: Aspect }[] = [
      { bytes: photo('friends_by_Aitzol_Berasategi.jpg'), aspect: 'og' },
      { bytes: subjectPhoto('astronaut_Eileen_Collins_NASA.jpg'), aspect: 'og' },
      { bytes: subjectPhoto('cameraman_by_Lav_Varshney.jpg'), aspect: 'og' },
      { bytes: subjectPhoto('cat_Chelsea_by_Stefan_van_der_Walt.jpg'), aspect: 'og' },
    ];
    for (const c of cases) {
      const options = {
        aspect: c.aspect,
        title: 'Weekend in the mountains',
        subtitle: 'Notes from a long walk',
      };
      const auto = await inkOver(c.bytes, { ...options, template: 'auto' }, []);
      const subjects = auto.report.subjects ?? [];
      expect(subjects.length, 'subjects named in the report').toBeGreaterThan(0);
      const boxes = subjects.map((s) => s.box);
      const chosen = (await inkOver(c.bytes, { ...options, template: 'auto' }, boxes)).count;
      const others = await Promise.all(
        (['bottom-left', 'left', 'right', 'split'] as const).map(
          async (t) => (await inkOver(c.bytes, { ...options, template: t }, boxes)).count,
        ),
      );
      expect(
        chosen,
        `${auto.report.template}: ink over subjects, against ${others.join(', ')} for the others`,
      ).toBeLessThanOrEqual(Math.min(...others));
    }
  });
});
