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
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { ASPECTS, type FontName, type Template } from '../design.js';
import { FILE_TYPES } from '../design.js';
import type { GenerateOptions, LayoutReport, RenderReport } from '../schemas.js';
import type { FileFormat } from '../design.js';
import { BUILT_IN_TEMPLATES, builtInDocument, isBuiltIn } from '../templates/built-ins.js';
import type { TemplateDocument } from '../templates/document.js';
import {
  type Backdrop,
  blendGradient,
  blendRgba,
  blendText,
  type Canvas,
  emptyBackdrop,
  keepBackdrop,
  type RowRange,
} from './blend.js';
import { type DecodedCanvas, type ImageInput, startDecodeCover } from './decode.js';
import { encodeCard, THUMBNAIL_WIDTH } from './encode.js';
import type { FontLibrary, LoadedFont } from './fonts.js';
import type { GradientGeometry } from './gradient.js';
import { type InkMeasurement, measureInk } from './ink.js';
import {
  boxOf,
  fillTexts,
  gradientOfLayer,
  layerFontOf,
  layoutDocument,
  type Rect,
  type TextLayout,
  textsOver,
} from './layout.js';
import { LOGO_GAP, logoRect, type LogoOverlay } from './logo.js';
import { rasteriseText, type TextMasks } from './overlay.js';
import { imagePixels, type LayerPixels, pixelRect, rectPixels } from './paint.js';
import { reportLayers, reportLayout } from './report.js';
import { chooseTemplate } from './template-choice.js';
import {
  chooseTones,
  dominantColour,
  parseHex,
  sampleBehind,
  shade,
  type Rgb,
  type ToneChoice,
} from './tones.js';

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
 * A template of the user's (`tpl_…`) resolved by the domain for a render: its document, the values
 * of its text variables (title and subtitle among them), the bytes of its image layers (assets and
 * image variables, each checked as an upload is) and its layers' own fonts, loaded.
 */
export interface TemplateDesign {
  id: string;
  document: TemplateDocument;
  values: Record<string, string | undefined>;
  /** Layer index → image bytes, for image layers whose source is an asset or an image variable. */
  images: Map<number, Buffer>;
  /** Layer index → the layer's own font (an uploaded one loaded). */
  fonts: Map<number, FontName | LoadedFont>;
}

/**
 * What the renderer draws: the generate options, with an uploaded font (`{custom}`) loaded by the
 * domain into a {@link LoadedFont} (an unresolved one is a fault), an optional logo, and with a
 * `tpl_…` template its resolved {@link TemplateDesign} (then `template` is ignored).
 */
export type RenderOptions = Omit<GenerateOptions, 'font' | 'fields'> & {
  font: GenerateOptions['font'] | LoadedFont;
  logo?: LogoOverlay | undefined;
  design?: TemplateDesign | undefined;
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

/** No gradient: the geometry a text layer's tones are chosen with when no auto gradient serves it. */
const NO_GRADIENT: GradientGeometry = { kind: 'linear', bands: [] };

/** Whether `layer` is a full-canvas cover of the photo: then the decoded photo is the canvas itself. */
function coversCanvas(document: TemplateDocument): boolean {
  const first = document.layers[0];
  return (
    first?.type === 'image' &&
    first.source === 'background' &&
    !first.box &&
    first.fit === 'cover' &&
    first.radius === 0 &&
    first.opacity === 1
  );
}

/** The layout of the text layers of one layer only: its blocks, with the bounds of their lines. */
function layerLayout(layout: TextLayout, layer: number): TextLayout {
  const blocks = layout.blocks.filter((b) => b.layer === layer);
  const lines = blocks.flatMap((b) => b.lines);
  if (lines.length === 0) return { ...layout, blocks };
  const left = Math.min(...lines.map((l) => l.x));
  const top = Math.min(...lines.map((l) => l.baseline - l.ascent));
  const right = Math.max(...lines.map((l) => l.x + l.width));
  const bottom = Math.max(...lines.map((l) => l.baseline + l.descent));
  return { ...layout, blocks, bounds: { x: left, y: top, width: right - left, height: bottom - top } };
}

/**
 * Masks whose text coverage stays inside `box` (the layer's box): a glyph that overhangs its advance
 * is clipped at the box's edge, so ink never leaves it. The shadow is not ink and keeps its spread.
 */
function clipToBox(masks: TextMasks, box: Rect): TextMasks {
  const { box: m, spans } = masks;
  const x0 = Math.ceil(box.x - m.x);
  const x1 = Math.floor(box.x + box.width - m.x);
  const y0 = Math.ceil(box.y - m.y);
  const y1 = Math.floor(box.y + box.height - m.y);
  for (let y = 0; y < m.height; y++) {
    let from = spans[2 * y] as number;
    let to = spans[2 * y + 1] as number;
    if (y < y0 || y >= y1) to = from;
    else {
      from = Math.max(from, x0);
      to = Math.max(from, Math.min(to, x1));
    }
    spans[2 * y] = from;
    spans[2 * y + 1] = to;
  }
  return masks;
}

/** The lines' reading rectangles of `layout`'s blocks of `layers`, grouped by block (tones.ts samples these). */
function readingRects(layout: TextLayout, layers: Set<number>): Rect[][] {
  // The pixels a reader sees the glyphs against: each line's box from cap height to baseline,
  // grown by READING_MARGIN_PX on every side (the ring 3 to 6 px around the glyphs that
  // test/render/photos.test.ts measures from the outside).
  return layout.blocks
    .filter((b) => layers.has(b.layer))
    .map((b) =>
      b.lines.map((l) => ({
        x: l.x - READING_MARGIN_PX,
        y: l.baseline - l.size * 0.72 - READING_MARGIN_PX,
        width: l.width + 2 * READING_MARGIN_PX,
        height: l.size * 0.72 + 2 * READING_MARGIN_PX,
      })),
    );
}

/** Paints `paint` over `rows` of the canvas in bands of {@link BLEND_BAND_ROWS}, each its own turn of the event loop. */
async function inBands(rows: RowRange, paint: (band: RowRange) => void): Promise<void> {
  for (let from = Math.max(0, rows.from); from < rows.to; from += BLEND_BAND_ROWS) {
    await yieldToEventLoop();
    paint({ from, to: Math.min(rows.to, from + BLEND_BAND_ROWS) });
  }
}

/** 8-bit colours (as the SVG layers had them): the integer arithmetic of the blend stays integer. */
const rgb8 = (c: Rgb): Rgb => [Math.round(c[0]), Math.round(c[1]), Math.round(c[2])];

export function createRenderer(fonts: FontLibrary, rendererOptions: RendererOptions = {}): Renderer {
  // libvips' operation cache off, for the whole process: every upload is new bytes, so the cache
  // never hits and only holds decoded pixels. With it, a server that had made 108 cards of every
  // photo × format reached a high-water resident memory of 599 MiB (`npm run bench -- --http`);
  // without it, see docs/performance.md.
  sharp.cache(false);
  const concurrency = rendererOptions.concurrency ?? availableParallelism();
  const limit = pLimit(concurrency);
  let meanRenderMs = INITIAL_RENDER_MS;
  /** The values a document's `{{variables}}` take. */
  const valuesOf = (options: RenderOptions) =>
    options.design?.values ?? { title: options.title, subtitle: options.subtitle };
  /** The layout of `document`'s text layers for `options`. */
  const layOut = (options: RenderOptions, document: TemplateDocument) =>
    layoutDocument(fonts, {
      aspect: options.aspect,
      document,
      texts: fillTexts(document, valuesOf(options)),
      font: fontOf(options.font),
      layerFonts: options.design?.fonts,
      fontSize: options.fontSize,
      reserve: logoOf(options, document)?.reserve,
    });
  /** What `layout` came to, for the render report (report.ts), with the template resolved. */
  const reportOf = (
    options: RenderOptions,
    document: TemplateDocument,
    layout: TextLayout,
    template: Template | undefined,
  ): LayoutReport => {
    const font = fontOf(options.font);
    if (!options.design) return reportLayout(layout, fonts, { ...options, font, template });
    // A template of the user's: the title's fields from the layer that sets {{title}} (else the
    // first text layer), and a report for each text layer.
    const texts = fillTexts(document, valuesOf(options));
    const titleLayer = document.layers.findIndex(
      (l) => l.type === 'text' && /\{\{\s*title\s*\}\}/.test(l.content),
    );
    const main = titleLayer >= 0 ? titleLayer : document.layers.findIndex((l) => l.type === 'text');
    const mainTexts = texts.get(main);
    const mainLayer = document.layers[main];
    return {
      ...reportLayout(layerLayout(layout, main), fonts, {
        title: mainTexts?.content ?? '',
        subtitle: mainTexts?.below,
        font: mainLayer?.type === 'text' ? layerFontOf(mainLayer, main, options.design.fonts, font) : font,
        template: undefined,
      }),
      template: options.design.id,
      layers: reportLayers(layout, fonts, document, texts, font, options.design.fonts),
    };
  };
  /**
   * The logo of `document` for `options`: where it goes (its layer's box, contained, else the
   * preset's corner) and the rectangle text keeps out of (it and its gap). None without a logo layer.
   */
  const logoOf = (options: RenderOptions, document: TemplateDocument) => {
    const logo = options.logo;
    const layer = document.layers.find((l) => l.type === 'logo');
    if (!logo || !layer) return undefined;
    let rect: Rect;
    if (layer.box) {
      const box = boxOf(layer.box, options.aspect);
      const k = Math.min(box.width / logo.width, box.height / logo.height);
      const w = Math.max(1, Math.round(logo.width * k));
      const h = Math.max(1, Math.round(logo.height * k));
      rect = {
        x: Math.round(box.x + (box.width - w) / 2),
        y: Math.round(box.y + (box.height - h) / 2),
        width: w,
        height: h,
      };
    } else rect = logoRect(options.aspect, logo);
    const gap = ASPECTS[options.aspect].width * LOGO_GAP;
    return {
      rect,
      reserve: {
        x: rect.x - gap,
        y: rect.y - gap,
        width: rect.width + 2 * gap,
        height: rect.height + 2 * gap,
      },
    };
  };
  /** Loads the large fallback fonts the texts need before they are laid out (off the main thread). */
  const prepareFonts = (options: RenderOptions, document: TemplateDocument) => {
    const loads: Promise<void>[] = [];
    for (const [i, text] of fillTexts(document, valuesOf(options))) {
      const layer = document.layers[i];
      if (layer?.type !== 'text') continue;
      loads.push(fonts.prepare(text.content, layer.weight));
      if (text.below && layer.below) loads.push(fonts.prepare(text.below, layer.below.weight));
    }
    return Promise.all(loads);
  };
  /** The built-in template of `options` (auto stands for bottom-left until the photo chooses). */
  const builtInOf = (options: RenderOptions): Template | 'auto' | undefined => {
    const { template } = options;
    if (template === undefined || template === 'auto' || isBuiltIn(template)) return template;
    throw new Error(`the template ${template} was not resolved before rendering`);
  };
  const templateOf = (options: RenderOptions): Template | undefined => {
    if (options.design) return undefined;
    const template = builtInOf(options);
    if (template === 'auto') return 'bottom-left';
    return template ?? (options.position === undefined ? 'bottom-left' : undefined);
  };
  const documentOf = (options: RenderOptions): TemplateDocument =>
    options.design?.document ?? builtInDocument({ template: builtInOf(options), position: options.position });

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
      const document = documentOf(options);
      await prepareFonts(options, document);
      return reportOf(options, document, layOut(options, document), templateOf(options));
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
    let document = documentOf(options);
    // The photo decodes on libvips' threads while the main thread lays the text out and resvg
    // rasterises it on libuv's: neither needs the other until the tones are chosen (except
    // template auto, whose layout is chosen on the photo). The layout waits until the decode is
    // under way, so as not to hold up its start (startDecodeCover); large fallback fonts load meanwhile.
    const fontsReady = prepareFonts(options, document);
    // Awaited below; if the photo is refused first, a rejection must not count as unhandled.
    fontsReady.catch(() => undefined);
    const decodeStart = await startDecodeCover(input, width, height, options.focus);
    const decoding = timed(decodeStart.decoded, start);
    // A rejected decode is awaited below; until then it must not count as unhandled.
    decoding.catch(() => undefined);
    // The other images of the document (logo, assets, image variables, a boxed photo) decode meanwhile.
    const pictures = new Map<number, Promise<LayerPixels>>();
    const logo = logoOf(options, document);
    const photo = document.layers.some(
      (l, i) => l.type === 'image' && l.source === 'background' && (i > 0 || !coversCanvas(document)),
    )
      ? Buffer.isBuffer(input)
        ? Promise.resolve(input)
        : readFile(input.path)
      : undefined;
    document.layers.forEach((layer, i) => {
      let pixels: Promise<LayerPixels> | undefined;
      if (layer.type === 'logo' && logo && options.logo)
        pixels = sharp(options.logo.image)
          .resize(logo.rect.width, logo.rect.height, { fit: 'fill' })
          .ensureAlpha()
          .raw()
          .toBuffer()
          .then((rgba) => ({ rect: logo.rect, rgba }));
      if (layer.type === 'image' && (i > 0 || !coversCanvas(document))) {
        const rect = pixelRect(layer.box ? boxOf(layer.box, options.aspect) : { x: 0, y: 0, width, height });
        const bytes = layer.source === 'background' ? photo : options.design?.images.get(i);
        if (bytes) pixels = Promise.resolve(bytes).then((b) => b && imagePixels(b, rect, layer));
      }
      if (pixels) {
        pixels.catch(() => undefined);
        pictures.set(i, pixels);
      }
    });

    let template = templateOf(options);
    let layout: TextLayout | undefined;
    let report: LayoutReport | undefined;
    let layoutMs = 0;
    let masks: Map<number, Promise<Timed<TextMasks | undefined>>> | undefined;
    const rasterise = (laid: TextLayout) =>
      new Map(
        document.layers.flatMap((layer, i) => {
          if (layer.type !== 'text' || !laid.blocks.some((b) => b.layer === i)) return [];
          const shadow = layer.shadow ?? options.textShadow;
          const box = laid.boxes.get(i) as Rect;
          const timing = timed(
            rasteriseText(layerLayout(laid, i), shadow).then((m) => m && clipToBox(m, box)),
          );
          timing.catch(() => undefined);
          return [[i, timing] as const];
        }),
      );
    await fontsReady;
    // A large fallback font just loaded took its own turn of the event loop; the layout takes the next.
    await yieldToEventLoop();
    if (options.design || options.template !== 'auto') {
      const started = performance.now();
      layout = layOut(options, document);
      masks = rasterise(layout);
      // The report too, while the photo decodes: it depends on the layout only.
      report = reportOf(options, document, layout, template);
      layoutMs = performance.now() - started;
    }
    const decoded = await decoding;
    t.decode = decoded.ms;
    mark = performance.now();
    if (!layout) {
      const chosen = chooseTemplate(decoded.value, (c) => layOut(options, BUILT_IN_TEMPLATES[c]));
      template = chosen.template;
      document = BUILT_IN_TEMPLATES[chosen.template];
      layout = chosen.layout;
      masks = rasterise(layout);
    }
    report ??= reportOf(options, document, layout, template);
    lap('layout');
    t.layout = (t.layout ?? 0) + layoutMs;
    // Each step on the main thread is its own turn of the event loop (no render holds it
    // for more than 20 ms); the yields cost microseconds.
    await yieldToEventLoop();
    mark = performance.now();

    const canvas: Canvas = coversCanvas(document) ? decoded.value : solidCanvas(document, width, height);
    const painted = await paintLayers(
      canvas,
      document,
      options,
      layout,
      masks as NonNullable<typeof masks>,
      pictures,
      diagnostics,
    );
    t.tones = painted.tonesMs;
    t.overlay = painted.overlayMs;
    t.composite = painted.compositeMs;
    mark = performance.now();

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
    t.encode = encoded.ms;
    t.thumbnail = thumbnailEncoded.ms;
    mark = performance.now();

    const contrast = painted.contrast.length ? Math.min(...painted.contrast.map((c) => c.contrast)) : 0;
    const layerContrast = new Map(painted.contrast.map((c) => [c.layer, c.contrast]));
    const withContrast: RenderReport = {
      ...report,
      contrast,
      ...(report.layers
        ? { layers: report.layers.map((l) => ({ ...l, contrast: layerContrast.get(l.layer) ?? null })) }
        : {}),
    };
    return {
      image: encoded.value,
      thumbnail: thumbnailEncoded.value,
      width,
      height,
      thumbnailWidth: THUMBNAIL_WIDTH,
      thumbnailHeight,
      format: options.fileFormat,
      contentType: FILE_TYPES[options.fileFormat].contentType,
      layout,
      tones: painted.tones,
      report: withContrast,
      timings: t as RenderTimings,
      span: { start, end: mark },
      ...(painted.ink ? { ink: painted.ink } : {}),
    };
  }
}

/** A canvas of the document's `background` colour, for a document whose first layer is not the photo. */
function solidCanvas(document: TemplateDocument, width: number, height: number): Canvas {
  const [r, g, b] = parseHex(document.background);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    pixels[i] = r;
    pixels[i + 1] = g;
    pixels[i + 2] = b;
  }
  return { pixels, width, height, channels: 3 };
}

/**
 * Paints the layers of `document` over `canvas` in order, in place: images, rects and the logo as
 * laid out, gradients, then text in the colour its `color` says, `auto` chosen on the pixels beneath
 * it after the layers below are painted. An `auto` gradient and the `auto` text layers above it are
 * chosen together, as the built-ins always were: the weakest gradient that gives the text its contrast.
 */
async function paintLayers(
  canvas: DecodedCanvas | Canvas,
  document: TemplateDocument,
  options: RenderOptions,
  layout: TextLayout,
  masks: Map<number, Promise<Timed<TextMasks | undefined>>>,
  pictures: Map<number, Promise<LayerPixels>>,
  diagnostics: { measure?: boolean } | undefined,
) {
  const { width, height } = canvas;
  const all: RowRange = { from: 0, to: height };
  const rowsOf = (r: Rect): RowRange => ({ from: r.y, to: Math.min(height, r.y + r.height) });
  const colourMode = { colorMode: options.colorMode, colorHex: options.colorHex };
  /** Tones chosen by an auto gradient for the text layers above it. */
  const assigned = new Map<number, ToneChoice>();
  const contrast: { layer: number; contrast: number }[] = [];
  let tones: ToneChoice | undefined;
  const inks: InkMeasurement[] = [];
  let tonesMs = 0;
  let overlayMs = 0;
  let compositeMs = 0;
  const textLayers = new Set(layout.blocks.map((b) => b.layer));
  for (let i = 0; i < document.layers.length; i++) {
    const layer = document.layers[i];
    if (!layer) continue;
    const started = performance.now();
    if (layer.type === 'image' || layer.type === 'logo') {
      const pixels = await pictures.get(i);
      if (pixels)
        await inBands(rowsOf(pixels.rect), (band) =>
          blendRgba(canvas, pixels.rect, pixels.rgba, false, band),
        );
    } else if (layer.type === 'rect') {
      const rect = pixelRect(boxOf(layer.box, options.aspect));
      const fill =
        layer.fill === 'auto'
          ? shade(
              dominantColour(
                sampleBehind(canvas.pixels, width, height, canvas.channels, [[rect]], NO_GRADIENT),
              ),
              0.1,
              0.55,
            )
          : parseHex(layer.fill);
      const pixels = rectPixels(rect, rgb8(fill), layer.radius, layer.opacity);
      await inBands(rowsOf(rect), (band) => blendRgba(canvas, rect, pixels.rgba, false, band));
    } else if (layer.type === 'gradient') {
      if (!options.gradient) continue;
      const geometry = gradientOfLayer(document, i, options.aspect, layout.blocks, layout.boxes);
      let colour: Rgb;
      let strength: number;
      if (layer.color === 'auto') {
        // The auto text layers it lies under are chosen with it.
        const served = new Set(
          textsOver(document, i, options.aspect, layout.boxes).filter((k) => {
            const above = document.layers[k];
            return textLayers.has(k) && above?.type === 'text' && above.color === 'auto';
          }),
        );
        if (served.size === 0) continue;
        const samples = sampleBehind(
          canvas.pixels,
          width,
          height,
          canvas.channels,
          readingRects(layout, served),
          geometry,
        );
        const choice = chooseTones(samples, { ...colourMode, gradient: true });
        for (const k of served) assigned.set(k, choice);
        if (!choice.gradient) continue;
        colour = choice.gradient.colour;
        strength = choice.gradient.strength * layer.opacity;
      } else {
        colour = parseHex(layer.color);
        strength = layer.opacity;
      }
      tonesMs += performance.now() - started;
      const blendStarted = performance.now();
      await inBands(all, (band) => blendGradient(canvas, geometry, rgb8(colour), strength, band));
      compositeMs += performance.now() - blendStarted;
      continue;
    } else if (layer.type === 'text') {
      const pending = masks.get(i);
      if (!pending) continue;
      let choice = layer.color === 'auto' ? assigned.get(i) : undefined;
      if (!choice) {
        const samples = sampleBehind(
          canvas.pixels,
          width,
          height,
          canvas.channels,
          readingRects(layout, new Set([i])),
          NO_GRADIENT,
        );
        choice = chooseTones(
          samples,
          layer.color === 'auto'
            ? { ...colourMode, gradient: false }
            : { colorMode: 'custom', colorHex: layer.color, gradient: false },
        );
      }
      tones ??= choice;
      contrast.push({ layer: i, contrast: choice.contrast });
      tonesMs += performance.now() - started;
      const rasterised = await pending;
      overlayMs += rasterised.ms;
      const text = rasterised.value;
      if (!text) continue;
      const blendStarted = performance.now();
      // With `measure`, the text box's backdrop (what is beneath, before the shadow and text) is
      // kept band by band: the ink is measured on what production blends.
      const backdrop: Backdrop | undefined = diagnostics?.measure ? emptyBackdrop(text.box) : undefined;
      const textColour = rgb8(choice.text);
      const shadowColour = rgb8(choice.shadow);
      await inBands(rowsOf(text.box), (band) => {
        if (backdrop) keepBackdrop(canvas, backdrop, band);
        blendText(canvas, text, textColour, shadowColour, band);
        if (text.colour) blendRgba(canvas, text.box, text.colour, true, band);
      });
      if (backdrop) inks.push(measureInk(text, backdrop, choice.text));
      compositeMs += performance.now() - blendStarted;
      continue;
    }
    compositeMs += performance.now() - started;
  }
  return {
    tones:
      tones ??
      chooseTones(sampleBehind(canvas.pixels, width, height, canvas.channels, [], NO_GRADIENT), {
        ...colourMode,
        gradient: false,
      }),
    contrast,
    ink: inks.length ? mergeInk(inks) : undefined,
    tonesMs,
    overlayMs,
    compositeMs,
  };
}

/** The ink of several text layers as one: the union of their boxes and the lowest contrasts. */
function mergeInk(inks: InkMeasurement[]): InkMeasurement {
  const boxes = inks.flatMap((i) => (i.box ? [i.box] : []));
  return {
    box: boxes.length
      ? {
          left: Math.min(...boxes.map((b) => b.left)),
          top: Math.min(...boxes.map((b) => b.top)),
          right: Math.max(...boxes.map((b) => b.right)),
          bottom: Math.max(...boxes.map((b) => b.bottom)),
        }
      : undefined,
    contrastP10: Math.min(...inks.map((i) => i.contrastP10)),
    contrastMin: Math.min(...inks.map((i) => i.contrastMin)),
  };
}
