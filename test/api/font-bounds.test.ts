/**
 * A crafted font cannot take the service down (issue 41): fonts made with fontTools as an attacker
 * makes them are refused at `POST /fonts` with 400 naming the bound they pass
 * (src/domain/render/text/font-bounds.ts); a colour font within the bounds is taken and renders; and a
 * font that got past the upload (loaded directly) fails its render at once rather than drawing a
 * colour glyph of hundreds of MB of SVG (src/domain/render/text/colr.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/kernel/errors.js';
import { COLOR_GLYPH_MAX_CHARS } from '../../src/domain/render/limits.js';
import { LoadedFont } from '../../src/domain/render/text/fonts.js';
import { withEventLoopWatched } from '../support/event-loop.js';
import { craftedFont } from '../support/fonttools.js';
import { solid } from '../support/images.js';
import { call, startTestServer, upload, type TestServer } from '../support/server.js';

let srv: TestServer;
let token: string;
beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('agency'));
}, 300_000);
afterAll(async () => srv?.close());

describe('POST /fonts refuses a font past its bounds, naming the bound', () => {
  it.each([
    [
      'colr',
      /^Expected a font within Titlecard's limits for font, but glyph 4 has 1900\d outline points \(at most 5000\)$/,
    ],
    [
      'layers',
      /^Expected a font within Titlecard's limits for font, but colour glyph 5 clips with 400\d{4} outline points in all \(at most 200000\)$/,
    ],
    [
      'points',
      /^Expected a font within Titlecard's limits for font, but glyph 3 has 1900\d outline points \(at most 5000\)$/,
    ],
  ] as const)('%s', async (variant, message) => {
    const font = await craftedFont(variant);
    const { result: res, maxDelayMs } = await withEventLoopWatched(() =>
      upload(srv, token, '/fonts', 'font', font, `${variant}.ttf`),
    );
    console.info(`font bounds: ${variant} refused; longest event-loop stall ${maxDelayMs.toFixed(0)} ms`);
    expect(maxDelayMs).toBeLessThan(500);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'font', constraint: 'max' });
    expect(res.body.error.message).toMatch(message);
    expect((await call(srv.base, 'GET', '/fonts', { token })).body.data.fonts).toEqual([]);
  });
});

describe('a colour font within the bounds', () => {
  it('is taken, and a title with its emoji renders', async () => {
    const font = await upload(srv, token, '/fonts', 'font', await craftedFont('fine'), 'fine.ttf');
    expect(font.status).toBe(201);
    const res = await upload(
      srv,
      token,
      '/generate',
      'image',
      await solid([200, 200, 200], 'jpeg', 800, 500),
      'a.jpg',
      {
        title: 'A \uE000 A',
        font: JSON.stringify({ custom: font.body.data.id }),
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('a colour glyph too large to draw', () => {
  it('fails at once, with a ValidationError on font, and draws nothing', async () => {
    // Loaded as the renderer loads an uploaded font, past the upload's check.
    const font = new LoadedFont('crafted', await craftedFont('colr'));
    expect(font.isColor).toBe(true);
    const emoji = 5;
    let thrown: unknown;
    try {
      font.colorSvg(emoji);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).message).toBe(
      `Expected colour glyphs of at most ${COLOR_GLYPH_MAX_CHARS} characters of SVG, but glyph ${emoji} of this font makes more`,
    );
  });
});
