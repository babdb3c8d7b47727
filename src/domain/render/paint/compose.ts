/**
 * Composition: a template document's layers painted over the canvas in order (images, rects and
 * the logo laid over it, gradients, text in its colour), each over the rows it covers, in bands that
 * are each their own turn of the event loop. The text's masks arrive rasterised (overlay.ts), the
 * images resized (paint.ts); what is chosen here is each text layer's colour, on the pixels beneath
 * it once the layers below are painted (tones.ts).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { TemplateDocument } from '../document/document.js';
import {
  type Backdrop,
  blendGradient,
  blendRgba,
  blendText,
  emptyBackdrop,
  keepBackdrop,
  type RowRange,
} from './blend.js';
import { fadedForDepth, gradientOfLayer, textsOver } from './gradient.js';
import type { RenderOptions } from '../types.js';
import { type InkMeasurement, measureInk } from './ink.js';
import type { TextLayout } from '../text/layout.js';
import {
  boxOf,
  type Canvas,
  type Frame,
  type GradientGeometry,
  lineBox,
  type Rect,
  unionOf,
} from '../geometry.js';
import type { TextMasks } from '../text/overlay.js';
import { type LayerPixels, pixelRect, rectPixels } from './layers.js';
import {
  chooseTones,
  dominantColour,
  parseHex,
  sampleBehind,
  scrimDepth,
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
/** A promise's value and how long it took to settle, ms. */
export interface Timed<T> {
  value: T;
  ms: number;
}
/** `promise` with the ms from `started` (default now, `performance.now()`) until it settled. */
export function timed<T>(promise: Promise<T>, started = performance.now()): Promise<Timed<T>> {
  return promise.then((value) => ({ value, ms: performance.now() - started }));
}

/** The canvas a render draws on: the template's own size, else the request's aspect. */
export function frameOf(options: Pick<RenderOptions, 'aspect' | 'design'>): Frame {
  return options.design?.size ?? options.aspect;
}

/** No gradient: the geometry a text layer's tones are chosen with when no auto gradient serves it. */
const NO_GRADIENT: GradientGeometry = { kind: 'linear', bands: [] };

/** Whether `layer` is a full-canvas cover of the photo: then the decoded photo is the canvas itself. */
export function coversCanvas(document: TemplateDocument): boolean {
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
export function layerLayout(layout: TextLayout, layer: number): TextLayout {
  const blocks = layout.blocks.filter((b) => b.layer === layer);
  const bounds = unionOf(blocks.flatMap((b) => b.lines.map(lineBox)));
  return bounds ? { ...layout, blocks, bounds } : { ...layout, blocks };
}

/**
 * Masks whose text coverage stays inside `box` (the layer's box): a glyph that overhangs its advance
 * is clipped at the box's edge, so ink never leaves it. The shadow is not ink and keeps its spread.
 */
export function clipToBox(masks: TextMasks, box: Rect): TextMasks {
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
  // test/render/photos-matrix-*.test.ts measures from the outside).
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

/** A canvas of the document's `background` colour, for a document whose first layer is not the photo. */
export function solidCanvas(document: TemplateDocument, width: number, height: number): Canvas {
  // Buffer.alloc repeats a fill of several bytes: one pixel's RGB.
  const pixels = Buffer.alloc(width * height * 3, Buffer.from(parseHex(document.background)));
  return { pixels, width, height, channels: 3 };
}

/**
 * Paints the layers of `document` over `canvas` in order, in place: images, rects and the logo as
 * laid out, gradients, then text in the colour its `color` says, `auto` chosen on the pixels beneath
 * it after the layers below are painted. An `auto` gradient and the `auto` text layers above it are
 * chosen together, as the built-ins always were: the weakest gradient that gives the text its contrast.
 */
export async function paintLayers(
  canvas: Canvas,
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
      const rect = pixelRect(boxOf(layer.box, frameOf(options)));
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
      const geometry = gradientOfLayer(document, i, frameOf(options), layout.blocks, layout.boxes);
      let colour: Rgb;
      let strength: number;
      if (layer.color === 'auto') {
        // The auto text layers it lies under are chosen with it.
        const served = new Set(
          textsOver(document, i, frameOf(options), layout.boxes).filter((k) => {
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
      // Its fade as long as its depth needs (no visible edge; gradient.ts fadedForDepth).
      const faded = fadedForDepth(geometry, scrimDepth(canvas, geometry, colour, strength), width, height);
      tonesMs += performance.now() - started;
      const blendStarted = performance.now();
      await inBands(all, (band) => blendGradient(canvas, faded, rgb8(colour), strength, band));
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
