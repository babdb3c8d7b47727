/**
 * Templates of the user's, rendered and measured on their pixels: each layer kind found in its box
 * (a rect's fill, an image's crop and radius), text ink inside its box only (a 200-character title
 * and an Arabic title in a small box included), `auto` colour at 4.5:1 or more against what lies
 * beneath by the independent helper of test/support/contrast.ts, and the built-ins' documents.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ASPECTS } from '../../src/domain/design.js';
import { createRenderer, type RenderOptions, type TemplateDesign } from '../../src/domain/render/index.js';
import { BUILT_IN_TEMPLATES } from '../../src/domain/render/document/built-ins.js';
import { fieldValues, parseTemplateDocument } from '../../src/domain/render/document/document.js';
import { generateOptionsSchema } from '../../src/domain/images/schemas.js';
import { ROOT } from '../support/process.js';
import { outsideContrast } from '../support/contrast.js';
import { decode, differenceBox, photo, solid } from '../support/images.js';
import { testFonts } from '../support/server.js';
import { SCRIPT_SAMPLES as SAMPLES } from '../support/samples.js';

const renderer = createRenderer(testFonts());
const { width: W, height: H } = ASPECTS.og;

/**
 * Renders `document` (JSON, parsed as POST /templates parses it) over `background`, its variables
 * filled from `values` (title, subtitle and fields) as a generation fills them, with image layers'
 * bytes by layer index.
 */
async function render(
  document: unknown,
  background: Buffer,
  values: Record<string, string | undefined> = {},
  images = new Map<number, Buffer>(),
  logo?: RenderOptions['logo'],
) {
  const parsed = parseTemplateDocument(document);
  const { title = 'A title', subtitle, ...fields } = values;
  const design: TemplateDesign = {
    id: 'tpl_0000000000000000000000',
    document: parsed,
    values: fieldValues(parsed, { title, subtitle, fields }),
    images,
    fonts: new Map(),
  };
  const base = generateOptionsSchema.parse({ title, subtitle, fileFormat: 'png' });
  return renderer.render(background, { ...base, design, logo }, { measure: true });
}

/** The px rectangle of a box of fractions on the og canvas. */
const px = (b: { x: number; y: number; w: number; h: number }) => ({
  x: Math.round(b.x * W),
  y: Math.round(b.y * H),
  width: Math.round(b.w * W),
  height: Math.round(b.h * H),
});

/** The RGB of pixel (x, y). */
function at(img: Awaited<ReturnType<typeof decode>>, x: number, y: number): number[] {
  const i = (y * img.width + x) * img.channels;
  return [img.data[i] as number, img.data[i + 1] as number, img.data[i + 2] as number];
}
const near = (a: number[], b: number[], tolerance = 6) =>
  a.every((v, k) => Math.abs(v - (b[k] as number)) <= tolerance);

const BACKGROUND = { type: 'image', source: 'background', fit: 'cover' } as const;

describe('layers, found in their boxes by their pixels', () => {
  it('a rect fills its box with its colour, corners rounded by its radius, and nothing outside', async () => {
    const box = { x: 0.1, y: 0.2, w: 0.3, h: 0.2 };
    const out = await render(
      { name: 'Rect', layers: [BACKGROUND, { type: 'rect', box, fill: '#FFCC00', radius: 0.5 }] },
      await solid([40, 60, 200]),
    );
    const img = await decode(out.image);
    const r = px(box);
    expect(near(at(img, r.x + r.width / 2, r.y + r.height / 2), [255, 204, 0])).toBe(true);
    // Radius 0.5 of the shorter side: a pill, whose corner pixels keep the photo.
    expect(near(at(img, r.x + 1, r.y + 1), [40, 60, 200])).toBe(true);
    expect(near(at(img, r.x + r.width / 2, r.y + 1), [255, 204, 0])).toBe(true);
    // Every yellow pixel inside the box.
    let outside = 0;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const inBox = x >= r.x - 1 && x <= r.x + r.width && y >= r.y - 1 && y <= r.y + r.height;
        if (!inBox && near(at(img, x, y), [255, 204, 0], 60)) outside++;
      }
    expect(outside).toBe(0);
  });

  it('an image is cover-cropped into its box and rounded to a circle by radius 0.5; opacity fades it', async () => {
    // A 2:1 image, red on the left half and green on the right: cover into a square crops its middle.
    const left = await sharp({
      create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } },
    })
      .composite([
        {
          input: { create: { width: 100, height: 100, channels: 3, background: { r: 0, g: 255, b: 0 } } },
          left: 100,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const box = { x: 0.4, y: 0.3, w: 0.2, h: 0.2 * (W / H) * 0.5 };
    const out = await render(
      {
        name: 'Image',
        variables: { avatar: { type: 'image' } },
        layers: [BACKGROUND, { type: 'image', source: '{{avatar}}', box, fit: 'cover', radius: 0.5 }],
      },
      await solid([255, 255, 255]),
      {},
      new Map([[1, left]]),
    );
    const img = await decode(out.image);
    const r = px(box);
    const cy = r.y + Math.round(r.height / 2);
    // Cover: both halves meet in the middle of the box (the crop keeps the centre).
    expect(near(at(img, r.x + Math.round(r.width * 0.3), cy), [255, 0, 0], 10)).toBe(true);
    expect(near(at(img, r.x + Math.round(r.width * 0.7), cy), [0, 255, 0], 10)).toBe(true);
    // A circle: the box's corners keep the white photo; just outside the box too.
    expect(near(at(img, r.x + 2, r.y + 2), [255, 255, 255])).toBe(true);
    expect(near(at(img, r.x + r.width - 3, r.y + r.height - 3), [255, 255, 255])).toBe(true);
    expect(near(at(img, r.x - 3, cy), [255, 255, 255])).toBe(true);

    const faded = await render(
      {
        name: 'Faded',
        variables: { avatar: { type: 'image' } },
        layers: [BACKGROUND, { type: 'image', source: '{{avatar}}', box, fit: 'cover', opacity: 0.5 }],
      },
      await solid([255, 255, 255]),
      {},
      new Map([[1, left]]),
    );
    const half = at(await decode(faded.image), r.x + Math.round(r.width * 0.3), cy);
    expect(near(half, [255, 128, 128], 8)).toBe(true);
  });

  it('a gradient of a hex colour runs from its edge past the text above it, and is gone at the far side', async () => {
    const box = { x: 0.05, y: 0.45, w: 0.6, h: 0.2 };
    const out = await render(
      {
        name: 'Gradient',
        layers: [
          BACKGROUND,
          { type: 'gradient', direction: 'to-top', color: '#FF0000' },
          { type: 'text', content: '{{title}}', box, color: '#000000', shadow: false },
        ],
      },
      await solid([255, 255, 255]),
    );
    const img = await decode(out.image);
    // Full strength at the bottom edge, fading upwards, none at the top (its reach ends 30% of
    // the height above the text's top).
    expect(near(at(img, W - 5, H - 1), [255, 0, 0], 8)).toBe(true);
    const middle = at(img, W - 5, Math.round(H * 0.5));
    expect(middle[0]).toBe(255);
    expect(middle[1]).toBeGreaterThan(10);
    expect(middle[1]).toBeLessThan(245);
    expect(near(at(img, W - 5, 2), [255, 255, 255])).toBe(true);
  });

  it("a logo layer with a box draws the preset's logo contained in it; the text keeps clear of it", async () => {
    const logo = await solid([0, 160, 0], 'png', 200, 100);
    const box = { x: 0.7, y: 0.7, w: 0.2, h: 0.2 };
    const out = await render(
      {
        name: 'Logo',
        layers: [
          BACKGROUND,
          {
            type: 'text',
            content: '{{title}}',
            box: { x: 0.05, y: 0.05, w: 0.9, h: 0.9 },
            color: '#000000',
            verticalAlign: 'bottom',
            shadow: false,
          },
          { type: 'logo', box },
        ],
      },
      await solid([255, 255, 255]),
      { title: 'A long title that would run under the logo in the corner' },
      new Map(),
      { image: logo, width: 200, height: 100, corner: 'top-left', size: 0.2 },
    );
    const img = await decode(out.image);
    const r = px(box);
    // 2:1 in a box of 240 × 126 px: 240 × 120, centred; green in the middle, white at the box's top.
    expect(near(at(img, r.x + r.width / 2, r.y + r.height / 2), [0, 160, 0])).toBe(true);
    expect(near(at(img, r.x + r.width / 2, r.y + 1), [255, 255, 255])).toBe(true);
    // The text kept out of the logo and its gap: its lines end above the logo's top.
    const lines = out.layout.blocks.flatMap((b) => b.lines);
    expect(Math.max(...lines.map((l) => l.baseline + l.descent))).toBeLessThanOrEqual(r.y + 3);
  });

  it('contain fits the whole image inside its box, letterboxed on what lies beneath', async () => {
    const wide = await solid([255, 0, 0], 'png', 400, 100);
    const box = { x: 0.3, y: 0.2, w: 0.2, h: 0.4 };
    const out = await render(
      {
        name: 'Contain',
        variables: { logo: { type: 'image' } },
        layers: [BACKGROUND, { type: 'image', source: '{{logo}}', box, fit: 'contain' }],
      },
      await solid([255, 255, 255]),
      {},
      new Map([[1, wide]]),
    );
    const img = await decode(out.image);
    const r = px(box);
    expect(near(at(img, r.x + r.width / 2, r.y + r.height / 2), [255, 0, 0])).toBe(true);
    // 4:1 in a box of 240 × 252 px: 60 px tall, centred; the box's top stays white.
    expect(near(at(img, r.x + r.width / 2, r.y + 5), [255, 255, 255])).toBe(true);
  });
});

/** A text layer's document over a plain or photo background, `color` and `box` given. */
const textDoc = (
  box: { x: number; y: number; w: number; h: number },
  color: string,
  over: Record<string, unknown> = {},
) => ({
  name: 'Text',
  layers: [
    BACKGROUND,
    {
      type: 'text',
      content: '{{title}}',
      box,
      color,
      fontSize: { min: 10, max: 72 },
      shadow: false,
      ...over,
    },
  ],
});

describe('text layers: ink inside the box, whatever the text', () => {
  const small = { x: 0.6, y: 0.1, w: 0.25, h: 0.2 };
  for (const [name, title] of [
    [
      'a 200-character title',
      'Twelve lessons from shipping a typesetting engine: what broke, what held, and why every headline deserves balanced lines, real fallback fonts and a contrast check before it ever reaches a reader'.slice(
        0,
        200,
      ),
    ],
    ['an Arabic title', SAMPLES.arabic as string],
    ['a Chinese title', SAMPLES.chinese as string],
  ] as const)
    it(`${name} in a small box stays inside it`, async () => {
      const background = photo('Dragonfly_by_Bolly.jpg');
      const [magenta, cyan] = await Promise.all([
        render(textDoc(small, '#FF00FF'), background, { title }),
        render(textDoc(small, '#00FFFF'), background, { title }),
      ]);
      const ink = await differenceBox(magenta.image, cyan.image);
      expect(ink).toBeDefined();
      const r = px(small);
      expect(ink?.left).toBeGreaterThanOrEqual(r.x - 1);
      expect(ink?.right).toBeLessThanOrEqual(r.x + r.width + 1);
      expect(ink?.top).toBeGreaterThanOrEqual(r.y - 1);
      expect(ink?.bottom).toBeLessThanOrEqual(r.y + r.height + 1);
      const layer = magenta.report.layers?.[0];
      expect(layer?.lines.length).toBeGreaterThan(0);
      expect(layer?.fontSize).toBeGreaterThanOrEqual(10);
    });

  it('right-to-left text aligned start sits at the right edge of its box; end at the left', async () => {
    const box = { x: 0.1, y: 0.1, w: 0.8, h: 0.3 };
    const [start, end] = await Promise.all(
      (['start', 'end'] as const).map(async (align) => {
        const [a, b] = await Promise.all([
          render(textDoc(box, '#FF00FF', { align, maxLines: 1 }), await solid([255, 255, 255]), {
            title: SAMPLES.hebrew,
          }),
          render(textDoc(box, '#00FFFF', { align, maxLines: 1 }), await solid([255, 255, 255]), {
            title: SAMPLES.hebrew,
          }),
        ]);
        return differenceBox(a.image, b.image);
      }),
    );
    const r = px(box);
    expect(r.x + r.width - (start?.right ?? 0)).toBeLessThan(12);
    expect((end?.left ?? 0) - r.x).toBeLessThan(12);
  });
});

describe('auto colour: measured against what is beneath, after the layers below', () => {
  it('text on a yellow pill turns dark and text on a dark photo turns light, each at 4.5:1 or more', async () => {
    const pill = { x: 0.05, y: 0.06, w: 0.3, h: 0.1 };
    const title = { x: 0.05, y: 0.3, w: 0.6, h: 0.3 };
    const document = {
      name: 'Pill',
      variables: { category: { type: 'text', default: 'Engineering' } },
      layers: [
        BACKGROUND,
        { type: 'rect', box: pill, fill: '#FFCC00', radius: 0.5 },
        {
          type: 'text',
          content: '{{category}}',
          box: pill,
          color: 'auto',
          align: 'center',
          verticalAlign: 'center',
          shadow: false,
          fontSize: { min: 12, max: 40 },
        },
        {
          type: 'text',
          content: '{{title}}',
          box: title,
          color: 'auto',
          shadow: false,
          fontSize: { min: 20, max: 72 },
        },
      ],
    };
    const out = await render(document, await solid([20, 24, 40]), { title: 'Dark photo, light words' });
    const dark = await outsideContrast(out.image, px(pill), [0, 0, 0], 40);
    const light = await outsideContrast(out.image, px(title), [255, 255, 255], 40);
    expect(dark.glyphPixels).toBeGreaterThan(50);
    expect(dark.p10).toBeGreaterThanOrEqual(4.5);
    expect(light.glyphPixels).toBeGreaterThan(50);
    expect(light.p10).toBeGreaterThanOrEqual(4.5);
    expect(out.report.layers?.map((l) => l.contrast)).toEqual([expect.any(Number), expect.any(Number)]);
  });

  it('an auto gradient under auto text reaches 4.5:1 on a busy photo, as the built-ins do', async () => {
    const box = { x: 0.05, y: 0.4, w: 0.6, h: 0.3 };
    const document = {
      name: 'Gradient',
      layers: [
        BACKGROUND,
        { type: 'gradient', direction: 'to-top', color: 'auto' },
        { type: 'text', content: '{{title}}', box, color: 'auto', verticalAlign: 'bottom' },
      ],
    };
    const out = await render(document, photo('friends_by_Aitzol_Berasategi.jpg'), {
      title: 'Notes from a week of building in the open',
    });
    expect(out.ink?.contrastP10).toBeGreaterThanOrEqual(4.5);
    expect(out.report.contrast).toBeGreaterThanOrEqual(4.5);
  });
});

describe('the built-in templates are documents', () => {
  it('each is a valid template document with one text layer setting {{title}}', () => {
    for (const [name, document] of Object.entries(BUILT_IN_TEMPLATES)) {
      expect(() => parseTemplateDocument(document), name).not.toThrow();
      const texts = document.layers.filter((l) => l.type === 'text');
      expect(
        texts.some((l) => l.type === 'text' && l.content === '{{title}}'),
        name,
      ).toBe(true);
    }
  });

  it("the bottom-left document as a template of the user's draws what template bottom-left draws", async () => {
    const background = photo('mate_RainDrops.jpg');
    const values = { title: 'One layout engine for every card', subtitle: 'Built-ins are templates too' };
    const [asTemplate, builtIn] = await Promise.all([
      render(BUILT_IN_TEMPLATES['bottom-left'], background, values),
      renderer.render(
        background,
        generateOptionsSchema.parse({ ...values, template: 'bottom-left', fileFormat: 'png' }),
      ),
    ]);
    expect(Buffer.compare(asTemplate.image, builtIn.image)).toBe(0);
  });

  it('the blog example of docs/templates.md renders, its avatar round and its author under it', async () => {
    const blog = JSON.parse(readFileSync(`${ROOT}/examples/templates/blog.json`, 'utf8'));
    const avatar = await solid([200, 30, 30], 'png', 300, 300);
    const out = await render(
      blog,
      photo('Kleiber_by_Lukas_Baubkus.jpg'),
      { title: 'Designing cards in git', author: 'Ada Lovelace' },
      new Map([[5, avatar]]),
    );
    expect(out.width).toBe(W);
    expect(out.report.layers?.map((l) => l.lines.join(' '))).toEqual([
      'Engineering',
      'Designing cards in git',
      'Ada Lovelace',
    ]);
    expect(out.report.truncated).toBe(false);
  });
});
