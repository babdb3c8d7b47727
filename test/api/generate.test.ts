/**
 * POST /generate through real HTTP: every option of docs/api.md#generate-options changes the output's pixels as docs/api.md
 * says (bad input: generate-errors.test.ts).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FONT_NAMES } from '../../src/domain/design.js';
import { download, generate, startTestServer, type TestServer } from '../support/server.js';
import { decode, inkBox, meanInkColour, photo, pixel, solid, type Decoded } from '../support/images.js';

let srv: TestServer;
let token: string;
const WHITE: [number, number, number] = [255, 255, 255];
const BLACK: [number, number, number] = [0, 0, 0];
let white: Buffer;
let black: Buffer;

beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('agency'));
  white = await solid(WHITE);
  black = await solid(BLACK);
});
afterAll(async () => srv.close());

/** Generates and downloads the image; fails the test on a non-201. */
async function render(
  fields: Record<string, string>,
  image: Buffer = white,
): Promise<Decoded & { bytes: Buffer; record: Record<string, unknown> }> {
  const res = await generate(srv.base, token, fields, { data: image });
  if (res.status !== 201) throw new Error(`generate answered ${res.status}: ${JSON.stringify(res.body)}`);
  const file = await download(res.body.data.url as string);
  return { ...(await decode(file.data)), bytes: file.data, record: res.body.data as Record<string, unknown> };
}

/** Black text on white, no gradient, no shadow: ink is exactly the text. */
const plain = { colorMode: 'black', gradient: 'false', textShadow: 'false' };

describe('aspects and formats', () => {
  it('each aspect has its exact pixel size, and the thumbnail is 400 px wide', async () => {
    for (const [aspect, w, h] of [
      ['og', 1200, 630],
      ['square', 1080, 1080],
      ['portrait', 1080, 1350],
    ] as const) {
      const out = await render({ title: 'Size', aspect });
      expect([out.width, out.height]).toEqual([w, h]);
      expect([out.record.width, out.record.height]).toEqual([w, h]);
      const thumb = await decode((await download(out.record.thumbnailUrl as string)).data);
      expect([thumb.width, thumb.height]).toEqual([400, Math.round((400 * h) / w)]);
    }
  });

  it('png, jpeg and webp come out in their format; png keeps transparency, jpeg has none', async () => {
    const transparent = await sharp({
      create: { width: 800, height: 420, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const png = await render(
      { title: 'Alpha', template: 'left', gradient: 'false', textShadow: 'false', colorMode: 'black' },
      transparent,
    );
    expect(png.format).toBe('png');
    expect(png.hasAlpha).toBe(true);
    expect(pixel(png, 1150, 40)[3]).toBe(0); // a corner far from the text stays transparent
    const jpeg = await render({ title: 'Alpha', template: 'left', fileFormat: 'jpeg' }, transparent);
    expect(jpeg.format).toBe('jpeg');
    expect(jpeg.channels).toBe(3);
    expect(jpeg.hasAlpha).toBe(false);
    const webp = await render(
      { title: 'Alpha', template: 'left', fileFormat: 'webp', gradient: 'false' },
      transparent,
    );
    expect(webp.format).toBe('webp');
    expect(webp.hasAlpha).toBe(true);
    expect(pixel(webp, 1150, 40)[3]).toBe(0);
    const opaque = await render({ title: 'Opaque', fileFormat: 'webp' }, await solid([30, 60, 90], 'jpeg'));
    expect(opaque.format).toBe('webp');
  });

  it('for a real photograph, jpeg and webp at quality 85 are far smaller than png', async () => {
    const bg = photo('mate_RainDrops.jpg');
    const sizes: Record<string, number> = {};
    for (const fileFormat of ['png', 'jpeg', 'webp'])
      sizes[fileFormat] = (await render({ title: 'Raindrops', fileFormat }, bg)).bytes.length;
    expect(sizes.jpeg).toBeLessThan((sizes.png as number) * 0.6);
    expect(sizes.webp).toBeLessThan(sizes.jpeg as number);
  });
});

describe('templates, positions and safe zones', () => {
  const W = 1200;
  const H = 630;

  it('bottom-left: left-aligned at the bottom, above the reserved bottom 28% of og', async () => {
    const out = await render({
      ...plain,
      title: 'Bottom left title',
      subtitle: 'A subtitle',
      template: 'bottom-left',
    });
    const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
    expect(ink.left).toBeGreaterThanOrEqual(W * 0.05 - 2);
    expect(ink.left).toBeLessThan(W * 0.05 + 20);
    expect(ink.bottom).toBeLessThanOrEqual(H * 0.72);
    expect(ink.bottom).toBeGreaterThan(H * 0.6); // anchored at the bottom of the safe zone
    expect(ink.top).toBeGreaterThanOrEqual(H * 0.05);
  });

  it('left: text in the left 45%, vertically centred in the safe zone', async () => {
    const out = await render({ ...plain, title: 'Left side title here', template: 'left' });
    const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
    expect(ink.left).toBeGreaterThanOrEqual(W * 0.05 - 2);
    expect(ink.right).toBeLessThanOrEqual(W * 0.45);
    const mid = (ink.top + ink.bottom) / 2;
    expect(Math.abs(mid - (H * 0.05 + H * 0.72) / 2)).toBeLessThan(H * 0.08);
  });

  it('right: text in the right 45%, right-aligned', async () => {
    const out = await render({
      ...plain,
      title: 'Right side title here',
      subtitle: 'short',
      template: 'right',
    });
    const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
    expect(ink.left).toBeGreaterThanOrEqual(W * 0.55);
    expect(ink.right).toBeLessThanOrEqual(W * 0.95);
    expect(ink.right).toBeGreaterThan(W * 0.95 - 20);
    // The short subtitle is flush right too: its ink ends at the same edge.
    const sub = inkBox(out, WHITE, 60, { x0: 0, x1: W, y0: Math.round(ink.bottom - 30), y1: ink.bottom + 1 });
    expect(sub?.right).toBeGreaterThan(W * 0.95 - 20);
  });

  it('split: title in the left 30%, subtitle in the right 30%, nothing in between', async () => {
    for (const aspect of ['og', 'square', 'portrait'] as const) {
      const out = await render({
        ...plain,
        aspect,
        title: 'Split title',
        subtitle: 'And the subtitle',
        template: 'split',
      });
      const left = inkBox(out, WHITE, 60, { x0: 0, x1: Math.round(out.width * 0.3) });
      const middle = inkBox(out, WHITE, 60, {
        x0: Math.round(out.width * 0.3),
        x1: Math.round(out.width * 0.7),
      });
      const right = inkBox(out, WHITE, 60, { x0: Math.round(out.width * 0.7), x1: out.width });
      expect(left, aspect).toBeDefined();
      expect(right, aspect).toBeDefined();
      expect(middle, aspect).toBeUndefined();
      expect(left?.left).toBeGreaterThanOrEqual(out.width * 0.05 - 2);
      expect(right?.right).toBeLessThanOrEqual(out.width * 0.95);
    }
  });

  it('every template works at every aspect and keeps out of the safe zones', async () => {
    for (const aspect of ['og', 'square', 'portrait'] as const) {
      for (const template of ['bottom-left', 'left', 'right', 'split']) {
        const out = await render({
          ...plain,
          aspect,
          template,
          title: 'A rather long title that needs several lines to fit in its box',
          subtitle: 'With a subtitle that also wraps onto more than one line',
        });
        const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
        const bottomLimit = aspect === 'og' ? out.height * 0.72 : out.height * 0.95;
        const where = `${template} ${aspect}`;
        expect(ink.left, where).toBeGreaterThanOrEqual(out.width * 0.05 - 2);
        expect(ink.right, where).toBeLessThanOrEqual(out.width * 0.95 + 1);
        expect(ink.top, where).toBeGreaterThanOrEqual(out.height * 0.05 - 1);
        expect(ink.bottom, where).toBeLessThanOrEqual(bottomLimit + 1);
      }
    }
  });

  it('position top, center and bottom move the text when no template is given', async () => {
    const mids: Record<string, number> = {};
    for (const position of ['top', 'center', 'bottom']) {
      const out = await render({ ...plain, title: 'Positioned', position });
      const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
      mids[position] = (ink.top + ink.bottom) / 2;
      // Centred horizontally.
      expect(Math.abs((ink.left + ink.right) / 2 - W / 2)).toBeLessThan(12);
      expect(ink.bottom).toBeLessThanOrEqual(H * 0.72);
    }
    expect(mids.top).toBeLessThan(H * 0.25);
    expect(mids.bottom).toBeGreaterThan(H * 0.5);
    expect(mids.center).toBeGreaterThan(mids.top as number);
    expect(mids.center).toBeLessThan(mids.bottom as number);
  });

  it('position {x, y} centres the text block at that fraction of the canvas, clamped to the safe zone', async () => {
    const out = await render({
      ...plain,
      title: 'Here',
      position: '{"x": 0.7, "y": 0.3}',
      aspect: 'square',
      fontSize: '48',
    });
    const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
    expect(Math.abs((ink.left + ink.right) / 2 - 1080 * 0.7)).toBeLessThan(12);
    expect(Math.abs((ink.top + ink.bottom) / 2 - 1080 * 0.3)).toBeLessThan(30);
    const corner = await render({ ...plain, title: 'Corner', position: '{"x": 1, "y": 1}' });
    const c = inkBox(corner, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
    expect(c.right).toBeLessThanOrEqual(W * 0.95 + 1);
    expect(c.bottom).toBeLessThanOrEqual(H * 0.72);
  });

  it('template wins over position', async () => {
    const both = await render({ ...plain, title: 'Which wins', template: 'right', position: 'top' });
    const right = await render({ ...plain, title: 'Which wins', template: 'right' });
    expect(inkBox(both, WHITE)).toEqual(inkBox(right, WHITE));
  });
});

describe('text colour, gradient, shadow, size and font', () => {
  it('colorMode auto picks black on white and white on black', async () => {
    const onWhite = await render({ title: 'Auto colour', gradient: 'false', textShadow: 'false' }, white);
    const onBlack = await render({ title: 'Auto colour', gradient: 'false', textShadow: 'false' }, black);
    expect(Math.max(...meanInkColour(onWhite, WHITE))).toBeLessThan(60);
    expect(Math.min(...meanInkColour(onBlack, BLACK))).toBeGreaterThan(195);
  });

  it('colorMode white, black and custom colour the text as asked', async () => {
    const grey: [number, number, number] = [128, 128, 128];
    const bg = await solid(grey);
    const base = { title: 'Colour', gradient: 'false', textShadow: 'false', fontSize: '100' };
    const w = await render({ ...base, colorMode: 'white' }, bg);
    expect(Math.min(...meanInkColour(w, grey, 80))).toBeGreaterThan(220);
    const b = await render({ ...base, colorMode: 'black' }, bg);
    expect(Math.max(...meanInkColour(b, grey, 80))).toBeLessThan(35);
    const red = await render({ ...base, colorMode: 'custom', colorHex: '#e00' }, await solid(WHITE));
    const [r, g, bl] = meanInkColour(red, WHITE, 80) as [number, number, number];
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(bl).toBeLessThan(60);
    const hex6 = await render({ ...base, colorMode: 'custom', colorHex: '#1E90FF' }, await solid(BLACK));
    const [r6, g6, b6] = meanInkColour(hex6, BLACK, 80) as [number, number, number];
    expect(b6).toBeGreaterThan(200);
    expect(g6).toBeGreaterThan(110);
    expect(r6).toBeLessThan(80);
  });

  it("the gradient darkens behind white text, in a deep shade of the photo's own colour", async () => {
    const blue: [number, number, number] = [60, 110, 200];
    const bg = await solid(blue);
    const on = await render({ title: 'Gradient', colorMode: 'white', textShadow: 'false' }, bg);
    const off = await render(
      { title: 'Gradient', colorMode: 'white', textShadow: 'false', gradient: 'false' },
      bg,
    );
    const nearBottom = pixel(on, 1150, 600);
    expect(pixel(off, 1150, 600)).toEqual(blue.map((v) => expect.closeTo(v, 0)));
    expect((nearBottom[0] as number) + (nearBottom[1] as number) + (nearBottom[2] as number)).toBeLessThan(
      (blue[0] + blue[1] + blue[2]) * 0.8,
    );
    // Tinted, not flat black: blue still dominates.
    expect(nearBottom[2] as number).toBeGreaterThan((nearBottom[0] as number) + 10);
    // It fades out towards the top.
    expect(pixel(on, 1150, 10)).toEqual(pixel(off, 1150, 10));
  });

  it('textShadow draws a soft shadow around the glyphs, and only when on', async () => {
    const bg = await solid([150, 150, 150]);
    const base = { title: 'Shadow', colorMode: 'white', gradient: 'false', fontSize: '100' };
    const on = await render({ ...base, textShadow: 'true' }, bg);
    const off = await render({ ...base, textShadow: 'false' }, bg);
    const darker = (img: Decoded) => {
      let n = 0;
      for (let i = 0; i < img.width * img.height; i++) if ((img.data[i * img.channels] as number) < 140) n++;
      return n;
    };
    expect(darker(off)).toBe(0);
    expect(darker(on)).toBeGreaterThan(500);
  });

  it('fontSize sets the title size; without it the size is chosen to fit', async () => {
    const small = inkBox(await render({ ...plain, title: 'Hxh', fontSize: '40' }), WHITE) as NonNullable<
      ReturnType<typeof inkBox>
    >;
    const big = inkBox(await render({ ...plain, title: 'Hxh', fontSize: '80' }), WHITE) as NonNullable<
      ReturnType<typeof inkBox>
    >;
    const ratio = (big.bottom - big.top) / (small.bottom - small.top);
    expect(ratio).toBeGreaterThan(1.9);
    expect(ratio).toBeLessThan(2.15);
    const shortAuto = inkBox(await render({ ...plain, title: 'Hxh' }), WHITE) as NonNullable<
      ReturnType<typeof inkBox>
    >;
    const longAuto = inkBox(
      await render({
        ...plain,
        title: 'Hxh with a great many more words so that it must be set smaller to fit',
      }),
      WHITE,
    ) as NonNullable<ReturnType<typeof inkBox>>;
    // A short title gets the largest size (120 px: cap height about 86 px in Arimo Bold).
    expect(shortAuto.bottom - shortAuto.top).toBeGreaterThan(80);
    expect(longAuto.right).toBeLessThanOrEqual(1200 * 0.95);
  });

  it('each of the nine fonts draws differently', async () => {
    const fonts = FONT_NAMES;
    const signatures = new Set<string>();
    for (const font of fonts) {
      const out = await render({
        ...plain,
        title: 'Hamburgefonstiv',
        fontSize: '64',
        font: JSON.stringify({ system: font }),
      });
      const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
      signatures.add(`${ink.right - ink.left}x${ink.bottom - ink.top}:${ink.count}`);
    }
    expect(signatures.size).toBe(9);
    // A bare font name works as well as the JSON object.
    const bare = await render({ ...plain, title: 'Hamburgefonstiv', fontSize: '64', font: 'lora' });
    const obj = await render({
      ...plain,
      title: 'Hamburgefonstiv',
      fontSize: '64',
      font: '{"system":"lora"}',
    });
    expect(inkBox(bare, WHITE)).toEqual(inkBox(obj, WHITE));
  });

  it('a word is never split when a break opportunity exists, and text never leaves its box', async () => {
    const out = await render({
      ...plain,
      template: 'left',
      fontSize: '120',
      title: 'Extraordinarily long words overflow',
    });
    const ink = inkBox(out, WHITE) as NonNullable<ReturnType<typeof inkBox>>;
    expect(ink.right).toBeLessThanOrEqual(1200 * 0.45);
    expect(ink.bottom).toBeLessThanOrEqual(630 * 0.72);
  });
});

describe('the photo is prepared before drawing', () => {
  it('it is turned upright by its EXIF orientation and cover-cropped', async () => {
    // Stored landscape: top half red, bottom half blue. Orientation 6 means "rotate 90° clockwise to view":
    // upright, the red half is on the right and the blue half on the left.
    const stored = await sharp({
      create: { width: 400, height: 200, channels: 3, background: { r: 220, g: 20, b: 20 } },
    })
      .composite([
        {
          input: { create: { width: 400, height: 100, channels: 3, background: { r: 20, g: 20, b: 220 } } },
          top: 100,
          left: 0,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const out = await render(
      { title: 'Upright', gradient: 'false', textShadow: 'false', template: 'split' },
      stored,
    );
    const [lr, , lb] = pixel(out, 20, 10) as [number, number, number];
    const [rr, , rb] = pixel(out, 1180, 10) as [number, number, number];
    expect(lb).toBeGreaterThan(150);
    expect(lr).toBeLessThan(80);
    expect(rr).toBeGreaterThan(150);
    expect(rb).toBeLessThan(80);
  });

  it('it is converted to sRGB: a CMYK JPEG keeps its colours', async () => {
    const cmyk = await sharp(await solid([200, 30, 30], 'png', 800, 500))
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const out = await render(
      { title: 'CMYK', gradient: 'false', textShadow: 'false', template: 'split' },
      cmyk,
    );
    const [r, g, b] = pixel(out, 600, 20) as [number, number, number];
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
  });

  it('no metadata (camera, GPS) reaches the published image', async () => {
    const tagged = await sharp(await solid([90, 120, 60], 'jpeg'))
      .withExif({ IFD0: { Make: 'LeakyCam', Model: 'SecretModel 9000', Copyright: 'GPS-SECRET' } })
      .jpeg()
      .toBuffer();
    expect(tagged.includes('LeakyCam')).toBe(true);
    for (const fileFormat of ['png', 'jpeg', 'webp']) {
      const out = await render({ title: 'Private', fileFormat }, tagged);
      const meta = await sharp(out.bytes).metadata();
      expect(meta.exif, fileFormat).toBeUndefined();
      expect(out.bytes.includes('LeakyCam')).toBe(false);
      expect(out.bytes.includes('SecretModel')).toBe(false);
    }
  });
});
