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
import sharp from 'sharp';
import { FILE_TYPES, type FileFormat, type FontName, type Template } from '../design.js';
import type {
  LayoutReport,
  Renderer,
  RendererOptions,
  RenderOptions,
  RenderReport,
  RenderResult,
  RenderTimings,
} from './types.js';
import { BUILT_IN_TEMPLATES, builtInDocument, isBuiltIn } from './document/built-ins.js';
import type { Canvas } from './geometry.js';
import { setsTitle, type TemplateDocument } from './document/document.js';
import {
  clipToBox,
  coversCanvas,
  frameOf,
  layerLayout,
  paintLayers,
  solidCanvas,
  timed,
  type Timed,
} from './paint/compose.js';
import { type CoverSource, startDecodeCover, type ImageInput, upscaleNotice } from './photo/decode.js';
import { encodeCard, encodeForDisplay, THUMBNAIL_WIDTH } from './encode/encode.js';
import type { FontLibrary, LoadedFont } from './text/fonts.js';
import { fillTexts, layerFontOf, layoutDocument, type TextLayout } from './text/layout.js';
import { boxOf, type Rect, sizeOf } from './geometry.js';
import { logoPlacement } from './paint/logo.js';
import { rasteriseText, type TextMasks } from './text/overlay.js';
import { imagePixels, type LayerPixels, pixelRect } from './paint/layers.js';
import { reportLayers, reportLayout } from './report.js';
import type { PlacedSubject } from './photo/subjects.js';
import { chooseTemplate } from './photo/template-choice.js';
import { contrastNotice } from './paint/tones.js';
import { createRenderTurns } from './turns.js';
import { processSubjectDetector } from './photo/subjects.js';

export { BLEND_BAND_ROWS, READING_MARGIN_PX } from './paint/compose.js';
export { type DisplayEncoding, encodeCard, encodeForDisplay, THUMBNAIL_WIDTH } from './encode/encode.js';
export { FONT_BOUNDS, MAX_ASPECT_RATIO, MAX_INPUT_PIXELS, TEMPLATE_LIMITS } from './limits.js';
export { BUILT_IN_TEMPLATES, isBuiltIn } from './document/built-ins.js';
export {
  fieldValues,
  hexColourSchema,
  imageVariableOf,
  mergeFields,
  parseTemplateDocument,
  templateDocumentSchema,
  type TemplateDocument,
  variableNameSchema,
} from './document/document.js';
export { checkImage } from './photo/checks.js';
export { decodeCover, findSubjects, inspectImage, type ImageInput } from './photo/decode.js';
export { createSubjectDetector, processSubjectDetector, type SubjectDetector } from './photo/subjects.js';
export { chooseTemplate } from './photo/template-choice.js';
export { imageSize, storedUpload } from './photo/upload.js';
export { checkFontBounds } from './text/font-bounds.js';
export { DEFAULT_FONTS_DIR, type FontLibrary, LoadedFont, loadFontLibrary } from './text/fonts.js';
export { warmUp } from './warm-up.js';
export type {
  LayerReport,
  LayoutReport,
  RenderCall,
  Renderer,
  RendererLoad,
  RendererOptions,
  RenderOptions,
  RenderReport,
  RenderResult,
  RenderTimings,
  TemplateDesign,
} from './types.js';

/** The font to lay out with; throws (a fault of ours) for an uploaded font the domain did not load. */
function fontOf(font: RenderOptions['font']): FontName | LoadedFont {
  if (typeof font === 'object' && 'custom' in font)
    throw new Error(`the uploaded font ${font.custom} was not loaded before rendering`);
  return font;
}

/** Weight of the newest render in {@link RendererLoad.meanRenderMs}: about the last ten count. */
export const RENDER_TIME_WEIGHT = 0.2;
/**
 * {@link RendererLoad.meanRenderMs} before any render: a 1200×630 card from a 12-megapixel JPEG
 * (`npm run bench`: 30 to 150 ms a photo); the warm-up renders replace it before the server listens.
 */
export const INITIAL_RENDER_MS = 150;

export function createRenderer(fonts: FontLibrary, rendererOptions: RendererOptions = {}): Renderer {
  // libvips' operation cache off, for the whole process: every upload is new bytes, so the cache
  // never hits and only holds decoded pixels. With it, a server that had made 108 cards of every
  // photo × format reached a high-water resident memory of 599 MiB (`npm run bench -- --http`);
  // without it, see docs/performance.md.
  sharp.cache(false);
  const concurrency = rendererOptions.concurrency ?? availableParallelism();
  const turns = createRenderTurns(concurrency);
  const detector = rendererOptions.detector ?? processSubjectDetector();
  let meanRenderMs = INITIAL_RENDER_MS;
  /** The values a document's `{{variables}}` take. */
  const valuesOf = (options: RenderOptions) =>
    options.design?.values ?? { title: options.title, subtitle: options.subtitle };
  /** The layout of `document`'s text layers for `options`. */
  const layOut = (options: RenderOptions, document: TemplateDocument) =>
    layoutDocument(fonts, {
      aspect: frameOf(options),
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
    const titleLayer = document.layers.findIndex((l) => l.type === 'text' && setsTitle(l.content));
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
    const layer = document.layers.find((l) => l.type === 'logo');
    if (!options.logo || !layer) return undefined;
    const frame = frameOf(options);
    return logoPlacement(frame, options.logo, layer.box && boxOf(layer.box, frame));
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
    load: () => ({ ...turns.load(), concurrency, meanRenderMs }),
    health: () => ({ subjects: detector.lastError() }),
    render: (input, options, call = {}) =>
      turns.run(call.account ?? '', async () => {
        const result = await renderOne(input, options, call);
        const ms = result.span.end - result.span.start;
        meanRenderMs += (ms - meanRenderMs) * RENDER_TIME_WEIGHT;
        return result;
      }),
    display: (image, how, call = {}) => turns.run(call.account ?? '', () => encodeForDisplay(image, how)),
    inTurn: (account, work) => turns.run(account, work),
    async layout(options) {
      const document = documentOf(options);
      await prepareFonts(options, document);
      return reportOf(options, document, layOut(options, document), templateOf(options));
    },
  };

  /**
   * One render, as a short list of stages (the module's header has their order and what overlaps):
   * start the photo's decode and the other pictures' → lay the text out (on the photo, for
   * template auto) → paint the layers → encode the card and its thumbnail → the report.
   */
  async function renderOne(
    input: ImageInput,
    options: RenderOptions,
    diagnostics: { measure?: boolean } | undefined,
  ): Promise<RenderResult> {
    const timings = stageTimer();
    const { width, height } = sizeOf(frameOf(options));
    const document = documentOf(options);
    // Large fallback fonts load meanwhile; awaited in the layout stage (if the photo is refused
    // first, their rejection must not count as unhandled).
    const fontsReady = prepareFonts(options, document);
    fontsReady.catch(() => undefined);
    const { decoding, source, subjects } = await startPhoto(input, width, height, options, timings.start);
    const pictures = startPictures(input, options, document, width, height);
    await fontsReady;
    const text = await layOutText(options, document, decoding, subjects, timings);
    const canvas: Canvas = coversCanvas(text.document)
      ? text.decoded
      : solidCanvas(text.document, width, height);
    const painted = await paintLayers(
      canvas,
      text.document,
      options,
      text.layout,
      text.masks,
      pictures,
      diagnostics,
    );
    timings.set({ tones: painted.tonesMs, overlay: painted.overlayMs, composite: painted.compositeMs });
    const encoded = await encodeOutputs(canvas, options.fileFormat, width, height);
    timings.set({ encode: encoded.card.ms, thumbnail: encoded.thumbnail.ms });
    return {
      image: encoded.card.value,
      thumbnail: encoded.thumbnail.value,
      width,
      height,
      thumbnailWidth: THUMBNAIL_WIDTH,
      thumbnailHeight: encoded.thumbnailHeight,
      format: options.fileFormat,
      contentType: FILE_TYPES[options.fileFormat].contentType,
      layout: text.layout,
      tones: painted.tones,
      // A background that is not the whole card (a template's boxed photo) is not judged by it.
      report: withContrast(
        text.report,
        painted.contrast,
        source,
        { width, height },
        coversCanvas(text.document),
        options,
        text.subjects,
      ),
      timings: timings.all(),
      span: { start: timings.start, end: performance.now() },
      ...(painted.ink ? { ink: painted.ink } : {}),
    };
  }

  /**
   * Stage 1: the photo's decode and cover crop, started on libvips' threads (startDecodeCover); the
   * layout waits until it is under way, so as not to hold up its start. A rejected decode is
   * awaited later; until then it must not count as unhandled.
   */
  async function startPhoto(
    input: ImageInput,
    width: number,
    height: number,
    options: RenderOptions,
    start: number,
  ): Promise<{
    decoding: Promise<Timed<Canvas>>;
    source: CoverSource;
    subjects: Promise<PlacedSubject[] | undefined>;
  }> {
    // The subjects are looked for where the request needs them: focus auto (decode.ts), template auto.
    const decodeStart = await startDecodeCover(input, width, height, options.focus, {
      subjects: options.template === 'auto',
      detector,
    });
    const decoding = timed(decodeStart.decoded, start);
    decoding.catch(() => undefined);
    return { decoding, source: decodeStart.source, subjects: decodeStart.subjects };
  }

  /**
   * Stage 1, beside the photo: the document's other pictures (logo, assets, image variables, a boxed
   * photo), decoded to their layers' rectangles meanwhile; layer index → pixels.
   */
  function startPictures(
    input: ImageInput,
    options: RenderOptions,
    document: TemplateDocument,
    width: number,
    height: number,
  ): Map<number, Promise<LayerPixels>> {
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
        const rect = pixelRect(
          layer.box ? boxOf(layer.box, frameOf(options)) : { x: 0, y: 0, width, height },
        );
        const bytes = layer.source === 'background' ? photo : options.design?.images.get(i);
        if (bytes) pixels = Promise.resolve(bytes).then((b) => b && imagePixels(b, rect, layer));
      }
      if (pixels) {
        pixels.catch(() => undefined);
        pictures.set(i, pixels);
      }
    });
    return pictures;
  }

  /**
   * Stage 2: the text laid out, rasterised (resvg, on libuv's threads) and reported while the photo
   * decodes; with template auto, on the decoded photo (template-choice.ts), which then names the
   * document. Each step on the main thread is its own turn of the event loop (no render holds it
   * for more than 20 ms); the yields cost microseconds.
   */
  async function layOutText(
    options: RenderOptions,
    given: TemplateDocument,
    decoding: Promise<Timed<Canvas>>,
    subjectsFound: Promise<PlacedSubject[] | undefined>,
    timings: StageTimer,
  ) {
    let document = given;
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
    let template = templateOf(options);
    let layout: TextLayout | undefined;
    let report: LayoutReport | undefined;
    let masks: Map<number, Promise<Timed<TextMasks | undefined>>> | undefined;
    let layoutMs = 0;
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
    const subjects = await subjectsFound;
    const afterDecode = performance.now();
    if (!layout) {
      const chosen = chooseTemplate(
        decoded.value,
        (c) => layOut(options, BUILT_IN_TEMPLATES[c]),
        subjects ?? [],
      );
      template = chosen.template;
      document = BUILT_IN_TEMPLATES[chosen.template];
      layout = chosen.layout;
      masks = rasterise(layout);
    }
    report ??= reportOf(options, document, layout, template);
    timings.set({ decode: decoded.ms, layout: performance.now() - afterDecode + layoutMs });
    await yieldToEventLoop();
    return {
      document,
      layout,
      report,
      masks: masks as NonNullable<typeof masks>,
      decoded: decoded.value,
      subjects,
    };
  }
}

/** The stages' times of one render ({@link RenderTimings}), from `start`, ms of `performance.now()`. */
interface StageTimer {
  start: number;
  set(stages: Partial<RenderTimings>): void;
  all(): RenderTimings;
}

function stageTimer(): StageTimer {
  const start = performance.now();
  const t: Partial<RenderTimings> = {};
  return {
    start,
    set: (stages) => Object.assign(t, stages),
    all: () => t as RenderTimings,
  };
}

/**
 * Stage 4: the card and its thumbnail ({@link THUMBNAIL_WIDTH} px wide) encoded at once, from the
 * same composed pixels, in `format` (encode.ts).
 */
async function encodeOutputs(canvas: Canvas, format: FileFormat, width: number, height: number) {
  const raw = { raw: { width, height, channels: canvas.channels } };
  const thumbnailHeight = Math.round((THUMBNAIL_WIDTH * height) / width);
  const [card, thumbnail] = await Promise.all([
    timed(encodeCard(sharp(canvas.pixels, raw), format, canvas.channels)),
    timed(
      encodeCard(sharp(canvas.pixels, raw).resize(THUMBNAIL_WIDTH, thumbnailHeight), format, canvas.channels),
    ),
  ]);
  return { card, thumbnail, thumbnailHeight };
}

/**
 * Stage 5: the layout's report with the contrast the paint reached: the lowest of the text layers',
 * and each layer's in a template's per-layer report; and its warnings: a background enlarged to
 * cover the card, text under 4.5:1.
 */
function withContrast(
  report: LayoutReport,
  contrast: { layer: number; contrast: number }[],
  source: CoverSource,
  card: { width: number; height: number },
  coversCard: boolean,
  options: RenderOptions,
  subjects: PlacedSubject[] | undefined,
): RenderReport {
  const lowest = contrast.length ? Math.min(...contrast.map((c) => c.contrast)) : 0;
  const byLayer = new Map(contrast.map((c) => [c.layer, c.contrast]));
  const warnings = [
    coversCard ? upscaleNotice(source, card.width, card.height) : undefined,
    contrast.length ? contrastNotice(lowest, options) : undefined,
  ].filter((w): w is string => w !== undefined);
  return {
    ...report,
    contrast: lowest,
    backgroundScale: source.scale,
    warnings,
    // Subjects on the card's photo; null when they were not looked for (or the detector was busy).
    subjects: subjects && coversCard ? subjects : null,
    ...(report.layers
      ? { layers: report.layers.map((l) => ({ ...l, contrast: byLayer.get(l.layer) ?? null })) }
      : {}),
  };
}
