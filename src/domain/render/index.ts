/**
 * The renderer: a pure function of its input and the font set loaded at start-up. Its stages, each
 * in its own file:
 *   decode → cover crop (decode.ts) → lay out text (layout.ts, shaping.ts) → analyse tones
 *   (tones.ts) → build and rasterise the overlay (overlay.ts) → composite → encode (here).
 * Shaping and tone analysis run on the main thread and take milliseconds; decoding, rasterising,
 * compositing and encoding run on libuv / libvips threads.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import sharp, { type Sharp } from 'sharp';
import { FILE_TYPES } from '../files.js';
import type { FileFormat } from '../model.js';
import {
  ASPECTS,
  type FontName,
  type GenerateOptions,
  type LayoutReport,
  type RenderReport,
  type Template,
} from '../schemas.js';
import { decodeCover, type ImageInput } from './decode.js';
import type { FontLibrary, LoadedFont } from './fonts.js';
import { layoutText, safeZoneOf, type Placement, type Rect, type TextLayout } from './layout.js';
import { buildOverlaySvgs, LAYER_SCALE, rasterise, type RasterLayer } from './overlay.js';
import { reportLayout } from './report.js';
import { meanOver, saliencyMap } from './saliency.js';
import {
  chooseTones,
  contrastRatio,
  relativeLuminance,
  sampleBehind,
  type Rgb,
  type ToneChoice,
} from './tones.js';

/** Quality of jpeg and webp output (spec 4.1 rule 5, section 8). */
export const LOSSY_QUALITY = 85;
/**
 * How far around a line's cap-height box the tone analysis reads the background, px: a reader
 * judges text against what lies just outside the strokes, 3 to 6 px (issue 13's measure).
 */
export const READING_MARGIN_PX = 6;
/** Thumbnail width in px; the height follows the aspect (og 400×210, square 400×400, portrait 400×500). */
export const THUMBNAIL_WIDTH = 400;

/** Corners a logo can sit in (a preset's `logo.corner`). */
export const LOGO_CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoCorner = (typeof LOGO_CORNERS)[number];

/** A logo laid over the card: its decoded bytes (PNG, JPEG or WebP, alpha kept) and where it goes. */
export interface LogoOverlay {
  image: Buffer;
  /** Natural size of `image`, px. */
  width: number;
  height: number;
  corner: LogoCorner;
  /** Logo width as a fraction of the canvas width, 0.05 to 0.3. */
  size: number;
}

/** Gap kept between a logo and the text, as a fraction of the canvas width. */
export const LOGO_GAP = 0.02;
/** A logo is never taller than this fraction of the canvas height (a tall logo is scaled down). */
const LOGO_MAX_HEIGHT = 0.25;

/**
 * Where a logo goes, px: `size` × the canvas width wide (height by its aspect, at most
 * {@link LOGO_MAX_HEIGHT} of the canvas), in its corner of the safe zone (spec 4.1 rule 3).
 */
export function logoRect(aspect: GenerateOptions['aspect'], logo: Omit<LogoOverlay, 'image'>): Rect {
  const canvas = ASPECTS[aspect];
  const safe = safeZoneOf(aspect);
  let width = Math.round(canvas.width * logo.size);
  let height = Math.round((width * logo.height) / logo.width);
  const maxHeight = Math.round(canvas.height * LOGO_MAX_HEIGHT);
  if (height > maxHeight) {
    width = Math.max(1, Math.round((width * maxHeight) / height));
    height = maxHeight;
  }
  const left = logo.corner.endsWith('left') ? safe.x : safe.x + safe.width - width;
  const top = logo.corner.startsWith('top') ? safe.y : safe.y + safe.height - height;
  return { x: Math.round(left), y: Math.round(top), width, height };
}

/**
 * What the renderer draws: the generate options, with an uploaded font (`{custom}`) loaded by the
 * domain into a {@link LoadedFont} (an unresolved one is a fault), and an optional logo.
 */
export type RenderOptions = Omit<GenerateOptions, 'font'> & {
  font: GenerateOptions['font'] | LoadedFont;
  logo?: LogoOverlay | undefined;
};

/** The font to lay out with; throws (a fault of ours) for an uploaded font the domain did not load. */
function fontOf(font: RenderOptions['font']): FontName | LoadedFont {
  if (typeof font === 'object' && 'custom' in font)
    throw new Error(`the uploaded font ${font.custom} was not loaded before rendering`);
  return font;
}

/** Milliseconds spent in each stage of one render. */
export interface RenderTimings {
  decode: number;
  layout: number;
  tones: number;
  overlay: number;
  composite: number;
  encode: number;
  thumbnail: number;
}

export interface RenderResult {
  image: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  thumbnailWidth: number;
  thumbnailHeight: number;
  format: FileFormat;
  contentType: string;
  layout: TextLayout;
  tones: ToneChoice;
  /** What the layout came to and the contrast reached (the `Titlecard-Render-Report` header). */
  report: RenderReport;
  timings: RenderTimings;
  /**
   * When this render had its turn and when it finished, in ms of `performance.now()`: the time it
   * waited in the queue is not included. Lets tests and `npm run bench` see renders overlap.
   */
  span: { start: number; end: number };
  /** Present when asked for with `measure`. */
  ink?: InkMeasurement;
}

/**
 * What the text looks like on the finished image, measured on its pixels (opt-in: it costs one more
 * composite, about 20 ms): the pixels where the text layer has ink (alpha ≥ 50%), and the backdrop
 * behind them (photo + gradient, no shadow, no text).
 */
export interface InkMeasurement {
  /** Bounding box of the ink, px, or undefined when nothing was drawn. */
  box: { left: number; top: number; right: number; bottom: number } | undefined;
  /** WCAG 2 contrast ratio of the text colour against the backdrop at ink pixels: 10th percentile and minimum. */
  contrastP10: number;
  contrastMin: number;
}

export interface RendererOptions {
  /**
   * Most renders at once; further requests wait their turn. Default: the number of cores, where
   * throughput stops rising (`npm run bench`: two at once on 2 cores). Each render holds five or six
   * full-canvas pixel buffers (photo, text, shadow and gradient layers, composite), at portrait
   * size 1080 × 1350 × 4 bytes = 5.8 MB each: about 30 MB.
   */
  concurrency?: number | undefined;
}

export interface Renderer {
  /**
   * Renders a titled image. Throws ValidationError (field `image`) for an input that is not a
   * decodable JPEG, PNG or WebP within the pixel limit; any other error is a fault of ours.
   * With `measure`, the result carries {@link InkMeasurement} (for tests and `npm run bench`).
   */
  render(
    input: ImageInput,
    options: RenderOptions,
    diagnostics?: { measure?: boolean },
  ): Promise<RenderResult>;
  /**
   * Lays the texts out without a photo (`POST /layout`): the report of what `render` would set.
   * `template: auto` needs the photo to choose, so it is laid out as bottom-left here (and
   * reported so). Synchronous, milliseconds.
   */
  layout(options: RenderOptions): LayoutReport;
  /** Renders under way and waiting for a turn. */
  load(): { active: number; waiting: number };
}

/** The templates `auto` chooses from: those with one text box (split keeps two apart). */
export const AUTO_CANDIDATES = ['bottom-left', 'left', 'right'] as const;

/**
 * `template=auto`: lays the text out in each of {@link AUTO_CANDIDATES} and keeps the one whose lines
 * cover the calmest, least salient part of the cropped photo (lowest mean of the saliency map over
 * the line boxes, saliency.ts). Ties keep the earlier candidate, bottom-left first.
 */
export function chooseTemplate(
  canvas: { pixels: Buffer; width: number; height: number; channels: number },
  layOut: (template: Template) => TextLayout,
): { template: Template; layout: TextLayout; scores: Record<string, number> } {
  const map = saliencyMap(canvas.pixels, canvas.width, canvas.height, canvas.channels);
  const scores: Record<string, number> = {};
  let best: { template: Template; layout: TextLayout; score: number } | undefined;
  for (const template of AUTO_CANDIDATES) {
    const layout = layOut(template);
    const rects = layout.blocks.flatMap((b) =>
      b.lines.map((l) => ({
        x: l.x,
        y: l.baseline - l.ascent,
        width: l.width,
        height: l.ascent + l.descent,
      })),
    );
    const score = meanOver(map, rects);
    scores[template] = score;
    if (!best || score < best.score - 1e-9) best = { template, layout, score };
  }
  const chosen = best as { template: Template; layout: TextLayout };
  return { template: chosen.template, layout: chosen.layout, scores };
}

/**
 * Template wins over position; with neither, the default template bottom-left (spec 4.1 rule 1).
 * `auto` must be resolved first (see {@link chooseTemplate}); here it stands for bottom-left.
 */
export function placementOf(options: Pick<GenerateOptions, 'template' | 'position'>): Placement {
  if (options.template === 'auto') return { template: 'bottom-left' };
  if (options.template) return { template: options.template };
  if (options.position !== undefined) return { position: options.position };
  return { template: 'bottom-left' };
}

function encoder(pipeline: Sharp, format: FileFormat): Sharp {
  switch (format) {
    case 'png':
      return pipeline.png({ compressionLevel: 6 });
    case 'jpeg':
      // JPEG has no alpha: transparent areas become white.
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: LOSSY_QUALITY });
    case 'webp':
      return pipeline.webp({ quality: LOSSY_QUALITY });
  }
}

/** See {@link InkMeasurement}. `textLayer` is premultiplied RGBA, `backdrop` RGB. */
function measureInk(
  textLayer: Buffer,
  backdrop: Buffer,
  width: number,
  height: number,
  text: Rgb,
): InkMeasurement {
  const lt = relativeLuminance(text);
  const ratios: number[] = [];
  let box: InkMeasurement['box'];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if ((textLayer[i * 4 + 3] as number) < 128) continue;
      const lb = relativeLuminance([
        backdrop[i * 3] as number,
        backdrop[i * 3 + 1] as number,
        backdrop[i * 3 + 2] as number,
      ]);
      ratios.push(contrastRatio(lt, lb));
      if (!box) box = { left: x, top: y, right: x, bottom: y };
      else {
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
    }
  }
  ratios.sort((a, b) => a - b);
  return {
    box,
    contrastP10: ratios[Math.floor(ratios.length * 0.1)] ?? 21,
    contrastMin: ratios[0] ?? 21,
  };
}

export function createRenderer(fonts: FontLibrary, rendererOptions: RendererOptions = {}): Renderer {
  const limit = pLimit(rendererOptions.concurrency ?? availableParallelism());
  /** The layout of `options` with `template` (resolved: never auto). */
  const layOut = (options: RenderOptions, template: Template | undefined) =>
    layoutText(fonts, {
      aspect: options.aspect,
      placement: template ? { template } : placementOf(options),
      title: options.title,
      subtitle: options.subtitle,
      font: fontOf(options.font),
      fontSize: options.fontSize,
      reserve: reserveOf(options),
    });
  /** The logo's rectangle grown by the gap: what the text keeps out of. */
  const reserveOf = (options: RenderOptions): Rect | undefined => {
    if (!options.logo) return undefined;
    const rect = logoRect(options.aspect, options.logo);
    const gap = ASPECTS[options.aspect].width * LOGO_GAP;
    return { x: rect.x - gap, y: rect.y - gap, width: rect.width + 2 * gap, height: rect.height + 2 * gap };
  };
  const templateOf = (options: RenderOptions): Template | undefined =>
    options.template === 'auto'
      ? 'bottom-left'
      : (options.template ?? (options.position === undefined ? 'bottom-left' : undefined));

  return {
    load: () => ({ active: limit.activeCount, waiting: limit.pendingCount }),
    render: (input, options, diagnostics) => limit(() => renderOne(input, options, diagnostics)),
    layout(options) {
      const template = templateOf(options);
      return reportLayout(layOut(options, template), fonts, {
        ...options,
        font: fontOf(options.font),
        template,
      });
    },
  };

  async function renderOne(
    input: ImageInput,
    options: RenderOptions,
    diagnostics: { measure?: boolean } | undefined,
  ): Promise<RenderResult> {
    const t: Partial<RenderTimings> = {};
    const start = performance.now();
    let mark = start;
    const lap = (stage: keyof RenderTimings) => {
      const now = performance.now();
      t[stage] = now - mark;
      mark = now;
    };
    const { width, height } = ASPECTS[options.aspect];
    const canvas = await decodeCover(input, width, height, options.focus);
    lap('decode');

    let template = templateOf(options);
    let layout: TextLayout;
    if (options.template === 'auto') {
      const chosen = chooseTemplate(canvas, (t) => layOut(options, t));
      template = chosen.template;
      layout = chosen.layout;
    } else layout = layOut(options, template);
    const report = reportLayout(layout, fonts, { ...options, font: fontOf(options.font), template });
    lap('layout');

    // The pixels a reader sees the glyphs against, block by block: each line's box from cap height
    // to baseline, grown by READING_MARGIN_PX on every side (the ring 3 to 6 px around the glyphs
    // that test/photos.test.ts measures from the outside).
    const rects = layout.blocks.map((b) =>
      b.lines.map((l) => ({
        x: l.x - READING_MARGIN_PX,
        y: l.baseline - l.size * 0.72 - READING_MARGIN_PX,
        width: l.width + 2 * READING_MARGIN_PX,
        height: l.size * 0.72 + 2 * READING_MARGIN_PX,
      })),
    );
    const samples = sampleBehind(canvas.pixels, width, height, canvas.channels, rects, layout.gradient);
    const tones = chooseTones(samples, options);
    lap('tones');

    const svgs = buildOverlaySvgs(layout, tones, options.textShadow);
    const [gradient, shadow, text] = await Promise.all([
      svgs.gradient === undefined ? undefined : rasterise(svgs.gradient, LAYER_SCALE.gradient),
      svgs.shadow === undefined ? undefined : rasterise(svgs.shadow, LAYER_SCALE.shadow),
      rasterise(svgs.text),
    ]);
    // Stretch the small layers to the canvas (resampled in premultiplied space, so edges keep their colour).
    const stretch = async (layer: RasterLayer | undefined) =>
      layer &&
      sharp(layer.pixels, {
        raw: { width: layer.width, height: layer.height, channels: 4, premultiplied: true },
      })
        .resize(width, height, { fit: 'fill', kernel: 'linear' })
        .raw()
        .toBuffer();
    const [gradientPixels, shadowPixels] = await Promise.all([stretch(gradient), stretch(shadow)]);
    const logo = options.logo && logoRect(options.aspect, options.logo);
    const logoPixels =
      options.logo &&
      logo &&
      (await sharp(options.logo.image).resize(logo.width, logo.height, { fit: 'fill' }).png().toBuffer());
    lap('overlay');

    const raw = { width, height, channels: canvas.channels };
    const layer = { width, height, channels: 4 as const };
    let composed = sharp(canvas.pixels, { raw }).composite([
      ...(gradientPixels ? [{ input: gradientPixels, raw: layer }] : []),
      ...(shadowPixels ? [{ input: shadowPixels, raw: layer }] : []),
      ...(logoPixels && logo ? [{ input: logoPixels, left: logo.x, top: logo.y }] : []),
      { input: text.pixels, raw: { ...layer, premultiplied: true } },
    ]);
    if (canvas.channels === 3) composed = composed.removeAlpha();
    const pixels = await composed.raw().toBuffer();
    lap('composite');

    let ink: InkMeasurement | undefined;
    if (diagnostics?.measure) {
      const backdrop = await sharp(canvas.pixels, { raw })
        .composite(gradientPixels ? [{ input: gradientPixels, raw: layer }] : [])
        .removeAlpha()
        .raw()
        .toBuffer();
      ink = measureInk(text.pixels, backdrop, width, height, tones.text);
    }

    const image = await encoder(sharp(pixels, { raw }), options.fileFormat).toBuffer();
    lap('encode');
    const thumbnailHeight = Math.round((THUMBNAIL_WIDTH * height) / width);
    const thumbnail = await encoder(
      sharp(pixels, { raw }).resize(THUMBNAIL_WIDTH, thumbnailHeight),
      options.fileFormat,
    ).toBuffer();
    lap('thumbnail');

    return {
      image,
      thumbnail,
      width,
      height,
      thumbnailWidth: THUMBNAIL_WIDTH,
      thumbnailHeight,
      format: options.fileFormat,
      contentType: FILE_TYPES[options.fileFormat].contentType,
      layout,
      tones,
      report: { ...report, contrast: tones.contrast },
      timings: t as RenderTimings,
      span: { start, end: mark },
      ...(ink ? { ink } : {}),
    };
  }
}
