/**
 * The renderer: a pure function of its input and the font set loaded at start-up. Its stages, each
 * in its own file:
 *   decode → cover crop (decode.ts), and meanwhile: lay out the text (layout.ts, shaping.ts) and
 *   rasterise it and its shadow within the text's box (overlay.ts);
 *   then analyse the tones (tones.ts) → blend gradient, shadow and text into the photo (blend.ts)
 *   → encode the card and its thumbnail at once (encode.ts). A logo's place is logo.ts's, the
 *   choice of `template=auto` template-choice.ts's, the optional ink measurement ink.ts's.
 * The photo decodes on a libvips thread while the text is laid out and rasterised: neither waits
 * for the other, so the title costs little on top of the photo (docs/performance.md). Layout, tones and
 * the blend run on the main thread, each in its own turn of the event loop, none longer than a few
 * milliseconds once warmed up (warm-up.ts).
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { ASPECTS, type FontName, type Template } from '../design.js';
import { FILE_TYPES } from '../design.js';
import type { GenerateOptions, LayoutReport, RenderReport } from '../schemas.js';
import type { FileFormat } from '../design.js';
import { type Backdrop, blendOverlay, emptyBackdrop, type LogoPixels, type Overlay } from './blend.js';
import { type ImageInput, startDecodeCover } from './decode.js';
import { encodeCard, THUMBNAIL_WIDTH } from './encode.js';
import type { FontLibrary, LoadedFont } from './fonts.js';
import { type InkMeasurement, measureInk } from './ink.js';
import { layoutText, type Rect, type TextLayout } from './layout.js';
import { LOGO_GAP, logoRect, type LogoOverlay } from './logo.js';
import { rasteriseText, type TextMasks } from './overlay.js';
import { reportLayout } from './report.js';
import { chooseTemplate, placementOf } from './template-choice.js';
import { chooseTones, sampleBehind, type ToneChoice } from './tones.js';

/**
 * How far around a line's cap-height box the tone analysis reads the background, px: a reader
 * judges text against what lies just outside the strokes, 3 to 6 px.
 */
export const READING_MARGIN_PX = 6;
/**
 * Rows blended per turn of the event loop: a 1200×630 card's blend (6 to 9 ms) in four parts of
 * about 2 ms (`npm run bench` measures the event-loop delay).
 */
export const BLEND_BAND_ROWS = 160;
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

/**
 * Milliseconds spent in each stage of one render. `overlay` (text and shadow rasterised) runs while
 * the photo decodes, and `thumbnail` while the card encodes: the stages add up to more than the
 * render's wall time.
 */
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

export interface RendererOptions {
  /**
   * Most renders at once; further requests wait their turn. Default: the number of cores, where
   * throughput stops rising (`npm run bench`: two at once on 2 cores). Each render holds the
   * decoded photo at canvas size (portrait 1080 × 1350 × 3 bytes = 4.4 MB), the text's box as RGBA
   * (at most the canvas, 5.8 MB) and the encoded outputs, besides what libvips holds while it
   * decodes: about 15 MB.
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
   * reported so). Milliseconds, once the fonts it needs are loaded ({@link FontLibrary.prepare}).
   */
  layout(options: RenderOptions): Promise<LayoutReport>;
  /** Renders under way and waiting for a turn, and what an admission needs to expect a wait. */
  load(): RendererLoad;
}

/** {@link Renderer.load}. */
export interface RendererLoad {
  active: number;
  waiting: number;
  /** Most renders at once (RendererOptions.concurrency). */
  concurrency: number;
  /**
   * Recent time a render holds its turn, ms: a moving average (each render weighs
   * {@link RENDER_TIME_WEIGHT}), from {@link INITIAL_RENDER_MS} before the first.
   */
  meanRenderMs: number;
}

/** Weight of the newest render in {@link RendererLoad.meanRenderMs}: about the last ten count. */
export const RENDER_TIME_WEIGHT = 0.2;
/**
 * {@link RendererLoad.meanRenderMs} before any render: a 1200×630 card from a 12-megapixel JPEG
 * (`npm run bench`: 30 to 150 ms a photo); the warm-up renders replace it before the server listens.
 */
export const INITIAL_RENDER_MS = 150;

/** A promise's value and how long it took to settle, ms. */
interface Timed<T> {
  value: T;
  ms: number;
}
/** `promise` with the ms from `started` (default now, `performance.now()`) until it settled. */
function timed<T>(promise: Promise<T>, started = performance.now()): Promise<Timed<T>> {
  return promise.then((value) => ({ value, ms: performance.now() - started }));
}

export function createRenderer(fonts: FontLibrary, rendererOptions: RendererOptions = {}): Renderer {
  // libvips' operation cache off, for the whole process: every upload is new bytes, so the cache
  // never hits and only holds decoded pixels. With it, a server that had made 108 cards of every
  // photo × format reached a high-water resident memory of 599 MiB (`npm run bench -- --http`);
  // without it, see docs/performance.md.
  sharp.cache(false);
  const concurrency = rendererOptions.concurrency ?? availableParallelism();
  const limit = pLimit(concurrency);
  let meanRenderMs = INITIAL_RENDER_MS;
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
  /** What `layout` came to, for the render report (report.ts), with `template` resolved. */
  const reportOf = (options: RenderOptions, layout: TextLayout, template: Template | undefined) =>
    reportLayout(layout, fonts, { ...options, font: fontOf(options.font), template });
  /** The logo's rectangle grown by the gap: what the text keeps out of. */
  const reserveOf = (options: RenderOptions): Rect | undefined => {
    if (!options.logo) return undefined;
    const rect = logoRect(options.aspect, options.logo);
    const gap = ASPECTS[options.aspect].width * LOGO_GAP;
    return { x: rect.x - gap, y: rect.y - gap, width: rect.width + 2 * gap, height: rect.height + 2 * gap };
  };
  /** Loads the large fallback fonts the texts need before they are laid out (off the main thread). */
  const prepareFonts = (options: RenderOptions) =>
    Promise.all([
      fonts.prepare(options.title, 'bold'),
      options.subtitle ? fonts.prepare(options.subtitle, 'regular') : undefined,
    ]);
  const templateOf = (options: RenderOptions): Template | undefined =>
    options.template === 'auto'
      ? 'bottom-left'
      : (options.template ?? (options.position === undefined ? 'bottom-left' : undefined));

  return {
    load: () => ({ active: limit.activeCount, waiting: limit.pendingCount, concurrency, meanRenderMs }),
    render: (input, options, diagnostics) =>
      limit(async () => {
        const result = await renderOne(input, options, diagnostics);
        const ms = result.span.end - result.span.start;
        meanRenderMs += (ms - meanRenderMs) * RENDER_TIME_WEIGHT;
        return result;
      }),
    async layout(options) {
      await prepareFonts(options);
      const template = templateOf(options);
      return reportOf(options, layOut(options, template), template);
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
    // The photo decodes on libvips' threads while the main thread lays the text out and resvg
    // rasterises it on libuv's: neither needs the other until the tones are chosen (except
    // template auto, whose layout is chosen on the photo). The layout waits until the decode is
    // under way, so as not to hold up its start (startDecodeCover); large fallback fonts load meanwhile.
    const fontsReady = prepareFonts(options);
    // Awaited below; if the photo is refused first, a rejection must not count as unhandled.
    fontsReady.catch(() => undefined);
    const decodeStart = await startDecodeCover(input, width, height, options.focus);
    const decoding = timed(decodeStart.decoded, start);
    const logo = options.logo && logoRect(options.aspect, options.logo);
    const logoPixels =
      options.logo && logo
        ? sharp(options.logo.image)
            .resize(logo.width, logo.height, { fit: 'fill' })
            .ensureAlpha()
            .raw()
            .toBuffer()
            .then((rgba): LogoPixels => ({ rect: logo, rgba }))
        : undefined;
    // A rejected decode is awaited below; until then it must not count as unhandled.
    decoding.catch(() => undefined);
    logoPixels?.catch(() => undefined);

    let template = templateOf(options);
    let layout: TextLayout | undefined;
    let report: LayoutReport | undefined;
    let layoutMs = 0;
    let masks: Promise<Timed<TextMasks | undefined>> | undefined;
    await fontsReady;
    // A large fallback font just loaded took its own turn of the event loop; the layout takes the next.
    await yieldToEventLoop();
    if (options.template !== 'auto') {
      const started = performance.now();
      layout = layOut(options, template);
      masks = timed(rasteriseText(layout, options.textShadow));
      masks.catch(() => undefined);
      // The report too, while the photo decodes: it depends on the layout only.
      report = reportOf(options, layout, template);
      layoutMs = performance.now() - started;
    }
    const decoded = await decoding;
    const canvas = decoded.value;
    t.decode = decoded.ms;
    mark = performance.now();
    if (!layout) {
      const chosen = chooseTemplate(canvas, (t) => layOut(options, t));
      template = chosen.template;
      layout = chosen.layout;
      masks = timed(rasteriseText(layout, options.textShadow));
    }
    report ??= reportOf(options, layout, template);
    lap('layout');
    t.layout = (t.layout ?? 0) + layoutMs;
    // Each step on the main thread is its own turn of the event loop (no render holds it
    // for more than 20 ms); the yields cost microseconds.
    await yieldToEventLoop();
    mark = performance.now();

    // The pixels a reader sees the glyphs against, block by block: each line's box from cap height
    // to baseline, grown by READING_MARGIN_PX on every side (the ring 3 to 6 px around the glyphs
    // that test/render/photos.test.ts measures from the outside).
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

    const rasterised = await (masks as Promise<Timed<TextMasks | undefined>>);
    t.overlay = rasterised.ms;
    const text = rasterised.value;
    const overlay: Overlay = { geometry: layout.gradient, tones, masks: text, logo: await logoPixels };
    mark = performance.now();
    // With `measure`, the bands also keep the text box's backdrop (photo + gradient, before the
    // shadow and text): the ink is measured on what production blends, band by band.
    const backdrop: Backdrop | undefined = diagnostics?.measure && text ? emptyBackdrop(text.box) : undefined;
    for (let from = 0; from < height; from += BLEND_BAND_ROWS) {
      await yieldToEventLoop();
      blendOverlay(canvas, overlay, { from, to: Math.min(height, from + BLEND_BAND_ROWS) }, backdrop);
    }
    const ink: InkMeasurement | undefined = backdrop && text && measureInk(text, backdrop, tones.text);
    lap('composite');

    // The card and its thumbnail encode at once, from the same composed pixels.
    const raw = { raw: { width, height, channels: canvas.channels } };
    const thumbnailHeight = Math.round((THUMBNAIL_WIDTH * height) / width);
    const [encoded, thumbnailEncoded] = await Promise.all([
      timed(encodeCard(sharp(canvas.pixels, raw), options.fileFormat, canvas.channels)),
      timed(
        encodeCard(
          sharp(canvas.pixels, raw).resize(THUMBNAIL_WIDTH, thumbnailHeight),
          options.fileFormat,
          canvas.channels,
        ),
      ),
    ]);
    const image = encoded.value;
    const thumbnail = thumbnailEncoded.value;
    t.encode = encoded.ms;
    t.thumbnail = thumbnailEncoded.ms;
    mark = performance.now();

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
