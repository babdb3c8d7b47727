/**
 * The free fit check and the render report through real HTTP, the cover-crop focus, and
 * `template=auto`: `/layout` agrees with what `/generate` draws in every script; focus and auto
 * change the crop and the layout as documented.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutReportSchema, renderReportSchema } from '../../src/domain/images/schemas.js';
import { decode, solid } from '../support/images.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { SCRIPT_SAMPLES } from '../support/samples.js';
import { call, download, generate, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let token: string;
let background: Buffer;
beforeAll(async () => {
  srv = await startTestServer();
  ({ token } = await srv.createUser('agency'));
  background = await solid([40, 60, 90], 'jpeg', 800, 500);
});
afterAll(async () => srv.close());

const reportOf = (headers: Headers) =>
  renderReportSchema.parse(JSON.parse(headers.get('titlecard-render-report') ?? 'null'));

describe('POST /layout, the free fit check', () => {
  it('agrees with what /generate then draws, in every script: size, lines, truncation, fallback fonts', async () => {
    for (const [script, title] of Object.entries(SCRIPT_SAMPLES)) {
      const options = { title, subtitle: 'Subtitle · 3 min', template: 'left' as const };
      const checked = await call(srv.base, 'POST', '/layout', { token, json: options });
      expect(checked.status, script).toBe(200);
      assertMatchesOpenApi('POST', '/layout', 200, checked.body);
      const layout = layoutReportSchema.parse(checked.body.data);
      const made = await generate(
        srv.base,
        token,
        { title, subtitle: options.subtitle, template: 'left' },
        { data: background },
      );
      expect(made.status, script).toBe(201);
      // The render report adds what only the photo tells: the contrast, the background's scale, subjects.
      const {
        contrast,
        backgroundScale: _scale,
        warnings: _warnings,
        subjects: _subjects,
        ...drawn
      } = reportOf(made.headers);
      expect(drawn, script).toEqual(layout);
      expect(contrast).toBeGreaterThanOrEqual(4.5);
      expect(layout.lines.title.join('').replace(/\s+/g, ''), script).toBe(title.replace(/\s+/g, ''));
    }
  });

  it('hyphenates a word wider than its line at the points of its language, with a visible hyphen; CJK keeps its rules (issue 42)', async () => {
    const cases = [
      ['Donaudampfschiffahrtsgesellschaft', 'de'],
      ['Incomprehensibilities everywhere', 'en-us'],
      ['Антидискриминационный', 'ru'],
    ] as const;
    for (const [title, language] of cases) {
      const res = await call(srv.base, 'POST', '/layout', { token, json: { title, fontSize: 120 } });
      expect(res.status).toBe(200);
      const report = layoutReportSchema.parse(res.body.data);
      expect(report.truncated, title).toBe(false);
      const lines = report.lines.title;
      const broken = lines.slice(0, -1).filter((l) => l.endsWith('-'));
      expect(broken.length, title).toBeGreaterThan(0);
      // Without the hyphens the lines are the title again, and every break is a point the
      // language's own TeX patterns allow (the hyphen package as the oracle).
      const { hyphenateSync } = (await import(`hyphen/${language}`)) as {
        hyphenateSync: (w: string, o: { hyphenChar: string }) => string;
      };
      let rebuilt = '';
      for (const line of lines) {
        const word = (rebuilt + line).split(/\s+/).at(-1) ?? '';
        if (line.endsWith('-') && line !== lines.at(-1)) {
          const wordSoFar = word.slice(0, -1);
          const full = title.split(/\s+/).find((w) => w.startsWith(wordSoFar)) ?? '';
          const marked = hyphenateSync(full, { hyphenChar: '|' });
          expect(marked.replace(/\|/g, '').length, title).toBe(full.length);
          expect(
            marked.split('|').some((_, i, parts) => parts.slice(0, i + 1).join('') === wordSoFar),
            `${title}: ${wordSoFar}`,
          ).toBe(true);
          rebuilt += line.slice(0, -1);
        } else rebuilt += line + ' ';
      }
      expect(rebuilt.replace(/\s+/g, ' ').trim()).toBe(title);
      // /generate draws the same lines.
      const made = await generate(srv.base, token, { title, fontSize: '120' }, { data: background });
      expect(reportOf(made.headers).lines.title).toEqual(lines);
    }
    // Punctuation around the word (quotes, a comma) does not keep it from its hyphens.
    const quoted = await call(srv.base, 'POST', '/layout', {
      token,
      json: { title: '„Donaudampfschiffahrtsgesellschaft“,', fontSize: 120 },
    });
    expect(layoutReportSchema.parse(quoted.body.data).lines.title[0]).toMatch(/^„Donau\S*-$/);
    const japanese = await call(srv.base, 'POST', '/layout', {
      token,
      json: { title: '新しいリリースのお知らせと今後の予定について', fontSize: 120 },
    });
    expect(layoutReportSchema.parse(japanese.body.data).lines.title.join('').includes('-')).toBe(false);
  });

  it('the fit report matches the pixels drawn, in every script: the ink spans as many lines as it says, at its size', async () => {
    // Black text on white, no gradient or shadow: ink is the text. A title of n lines at size S has
    // its baselines TITLE_LINE_HEIGHT × S apart, so its ink spans (n − 1) × 1.15 S plus one line's
    // own height, which is 0.45 to 1.6 S in every script here (x-height only to stacked marks and
    // emoji): ranges that do not overlap for n and n ± 1, so a wrong line count or size shows.
    const white = await solid([255, 255, 255], 'png', 1200, 630);
    for (const [script, title] of Object.entries(SCRIPT_SAMPLES)) {
      const fields = { title, template: 'left', colorMode: 'black', gradient: 'false', textShadow: 'false' };
      const checked = await call(srv.base, 'POST', '/layout', {
        token,
        json: { ...fields, gradient: false, textShadow: false },
      });
      const report = layoutReportSchema.parse(checked.body.data);
      const made = await generate(srv.base, token, fields, { data: white });
      expect(made.status, script).toBe(201);
      const img = await decode((await download(made.body.data.url as string)).data);
      let first = -1;
      let last = -1;
      for (let y = 0; y < img.height; y++)
        for (let x = 0; x < img.width; x++) {
          const i = (y * img.width + x) * img.channels;
          const d =
            255 - Math.min(img.data[i] as number, img.data[i + 1] as number, img.data[i + 2] as number);
          if (d > 60) {
            if (first < 0) first = y;
            last = y;
            break;
          }
        }
      const span = last - first + 1;
      const size = report.fontSize;
      const lines = report.lines.title.length;
      const where = `${script}: ${lines} lines at ${size} px, ink ${span} px tall`;
      expect(span, where).toBeGreaterThanOrEqual((lines - 1) * 1.15 * size + 0.45 * size);
      expect(span, where).toBeLessThanOrEqual((lines - 1) * 1.15 * size + 1.6 * size);
    }
  });

  it('reports fallback fonts, characters no font covers, and a cut with an ellipsis', async () => {
    const mixed = await call(srv.base, 'POST', '/layout', {
      token,
      json: { title: 'Hello 世界 𓀀', font: 'inter' },
    });
    expect(mixed.body.data.fallbackFonts).toContain('Noto Sans SC');
    expect(mixed.body.data.missingCharacters).toEqual(['𓀀']);
    const long = await call(srv.base, 'POST', '/layout', {
      token,
      json: { title: 'A very long title '.repeat(10).trim(), template: 'split', fontSize: 120 },
    });
    expect(long.body.data.truncated).toBe(true);
    expect(long.body.data.lines.title.at(-1)).toMatch(/…$/);
  });

  it('uses no quota, names the bad field, and is limited to 60 a minute per account', async () => {
    const { token: own } = await srv.createUser('free');
    const bad = await call(srv.base, 'POST', '/layout', {
      token: own,
      json: { title: 'x', aspect: 'cinema' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ field: 'aspect', constraint: 'enum' });
    const statuses: number[] = [bad.status];
    for (let i = 0; i < 60; i++)
      statuses.push(
        (await call(srv.base, 'POST', '/layout', { token: own, json: { title: `t${i}` } })).status,
      );
    expect(statuses.filter((s) => s === 200)).toHaveLength(59);
    const limited = await call(srv.base, 'POST', '/layout', { token: own, json: { title: 'one more' } });
    expect(limited.status).toBe(429);
    assertMatchesOpenApi('POST', '/layout', 429, limited.body);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(srv.base, 'GET', '/usage', { token: own })).body.data.usage.generated).toBe(0);
  });
});

describe('focus: what the cover crop keeps', () => {
  /** A wide photo: red left third, grey middle, blue right third. */
  const stripes = () =>
    sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#808080' } })
      .composite([
        {
          input: { create: { width: 1000, height: 1000, channels: 3, background: '#ff0000' } },
          left: 0,
          top: 0,
        },
        {
          input: { create: { width: 1000, height: 1000, channels: 3, background: '#0000ff' } },
          left: 2000,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
  const centreColour = async (res: { body: { data: { url: string } } }) => {
    const file = Buffer.from(await (await fetch(res.body.data.url)).arrayBuffer());
    const { data, ...info } = await decode(file);
    const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    return [data[i], data[i + 1], data[i + 2]];
  };

  it('center keeps the middle; {x, y} keeps that point; attention finds the salient part', async () => {
    const photo = await stripes();
    const square = {
      title: 'Focus',
      aspect: 'square',
      gradient: 'false',
      textShadow: 'false',
      template: 'split',
    };
    const at = async (focus: string) => {
      const res = await generate(srv.base, token, { ...square, focus }, { data: photo, type: 'image/png' });
      expect(res.status, focus).toBe(201);
      return centreColour(res);
    };
    expect(await at('center')).toEqual([128, 128, 128]);
    expect(await at('{"x":0,"y":0.5}')).toEqual([255, 0, 0]);
    expect(await at('{"x":1,"y":0.5}')).toEqual([0, 0, 255]);
    // A single bright, saturated object on a flat field: attention puts it in frame.
    const object = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#707070' } })
      .composite([
        {
          input: await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ffcc00' } })
            .png()
            .toBuffer(),
          left: 2500,
          top: 300,
        },
      ])
      .png()
      .toBuffer();
    const centred = await generate(
      srv.base,
      token,
      { ...square, focus: 'center' },
      { data: object, type: 'image/png' },
    );
    const attended = await generate(
      srv.base,
      token,
      { ...square, focus: 'attention' },
      { data: object, type: 'image/png' },
    );
    const yellowShare = async (res: typeof centred) => {
      const { data, ...info } = await decode(
        Buffer.from(await (await fetch(res.body.data.url)).arrayBuffer()),
      );
      let n = 0;
      for (let i = 0; i < data.length; i += info.channels)
        if ((data[i] as number) > 200 && (data[i + 2] as number) < 80) n++;
      return n / (info.width * info.height);
    };
    expect(await yellowShare(centred)).toBe(0);
    expect(await yellowShare(attended)).toBeGreaterThan(0.05);
  });

  it('refuses a focus point outside the photo, naming the field', async () => {
    const res = await generate(
      srv.base,
      token,
      { title: 'x', focus: '{"x":1.5,"y":0}' },
      { data: background },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toMatch(/^focus/);
  });
});

describe('template=auto', () => {
  /** Busy noise on one half, a flat colour on the other. */
  const halfBusy = async (busy: 'left' | 'right') => {
    const noise = await sharp({
      create: {
        width: 600,
        height: 630,
        channels: 3,
        background: '#000000',
        noise: { type: 'gaussian', mean: 128, sigma: 80 },
      },
    })
      .png()
      .toBuffer();
    return sharp({ create: { width: 1200, height: 630, channels: 3, background: '#3a4a5a' } })
      .composite([{ input: noise, left: busy === 'left' ? 0 : 600, top: 0 }])
      .png()
      .toBuffer();
  };

  it('puts the text on the calm side, and says which template it chose', async () => {
    for (const [busy, calm] of [
      ['left', 'right'],
      ['right', 'left'],
    ] as const) {
      const res = await generate(
        srv.base,
        token,
        { title: 'Where the photo is calm', template: 'auto' },
        { data: await halfBusy(busy), type: 'image/png' },
      );
      expect(res.status).toBe(201);
      expect(reportOf(res.headers).template, `busy ${busy}`).toBe(calm);
    }
  });

  it('/layout lays auto out as bottom-left (the choice needs the photo) and says so', async () => {
    const res = await call(srv.base, 'POST', '/layout', {
      token,
      json: { title: 'No photo here', template: 'auto' },
    });
    expect(res.body.data.template).toBe('bottom-left');
  });
});
