/**
 * The renderer's own input and report types: what a caller gives `Renderer.render` and `layout`,
 * and what they answer. The domain's request schemas (src/domain/images/schemas.ts) are checked
 * against these at compile time, so the API's options and report and the renderer's cannot drift.
 */
import type { Aspect, FileFormat, FontName } from '../design.js';
import type { TemplateDocument } from './document/document.js';
import type { LogoOverlay } from './paint/logo.js';
import type { DisplayEncoding } from './encode/encode.js';
import type { ImageInput } from './photo/decode.js';
import type { SubjectDetector } from './photo/subjects.js';
import type { InkMeasurement } from './paint/ink.js';
import type { ToneChoice } from './paint/tones.js';
import type { LoadedFont } from './text/fonts.js';
import type { TextLayout } from './text/layout.js';

/** A point as fractions 0..1 of the canvas (a text position) or of the photo (a focus). */
export interface Fraction2D {
  x: number;
  y: number;
}

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
  /** The template's own canvas size, px, when it has one and the request names no aspect. */
  size?: { width: number; height: number } | undefined;
}

/**
 * What the renderer draws: the options of docs/api.md#generate-options as validated (defaults
 * applied), with an uploaded font (`{custom}`) loaded by the domain into a {@link LoadedFont} (an
 * unresolved one is a fault), an optional logo, and with a `tpl_…` template its resolved
 * {@link TemplateDesign} (then `template` is ignored).
 */
export interface RenderOptions {
  /** 1 to 200 grapheme clusters; a line feed forces a break. */
  title: string;
  subtitle?: string | undefined;
  /** Where the text goes when no template is given. */
  position?: 'top' | 'center' | 'bottom' | Fraction2D | undefined;
  /** A built-in template, `auto`, or a template id (then {@link design} holds it). */
  template?: string | undefined;
  /** What the cover crop keeps in frame. */
  focus: 'auto' | 'center' | 'attention' | Fraction2D;
  colorMode: 'auto' | 'white' | 'black' | 'custom';
  /** #RGB or #RRGGBB, with colorMode custom. */
  colorHex?: string | undefined;
  gradient: boolean;
  textShadow: boolean;
  /** Title size in px, 24 to 120; automatic when unset. */
  fontSize?: number | undefined;
  font: FontName | { custom: string } | LoadedFont;
  aspect: Aspect;
  fileFormat: FileFormat;
  logo?: LogoOverlay | undefined;
  design?: TemplateDesign | undefined;
}

/** What one text layer of a template came to (`layers` of a {@link LayoutReport}). */
export interface LayerReport {
  /** Index of the layer in the template's layers. */
  layer: number;
  /** Size of its first paragraph, px. */
  fontSize: number;
  /** Its text as set, one string a line (a `below` paragraph after). */
  lines: string[];
  truncated: boolean;
  /** Fonts other than its own that drew some glyph. */
  fallbackFonts: string[];
  /** Characters no bundled font covers. */
  missingCharacters: string[];
  /** WCAG 2 contrast ratio reached behind it (10th percentile); null without a photo. */
  contrast: number | null;
}

/** What a layout came to: sizes, lines as set, cuts, fallback fonts, characters no font covers. */
export interface LayoutReport {
  /** The template laid out: a built-in `Template` (the one chosen for auto) or a template id; null for a position. */
  template: string | null;
  /** Title size, px. */
  fontSize: number;
  /** Subtitle size, px; null without a subtitle. */
  subtitleFontSize: number | null;
  lines: { title: string[]; subtitle: string[] };
  lineCount: number;
  truncated: boolean;
  fallbackFonts: string[];
  missingCharacters: string[];
  /** With a template id: each text layer's report, in layer order. */
  layers?: LayerReport[] | undefined;
}

/** A subject the detector found, where it is on the card (px, the part the crop kept). */
export interface ReportedSubject {
  kind: 'face' | 'person' | 'cat' | 'dog';
  /** The detector's confidence, 0 to 1. */
  score: number;
  box: { x: number; y: number; width: number; height: number };
}

/** The render report of a card: the layout report, the contrast reached, and what to warn of. */
export interface RenderReport extends LayoutReport {
  /** WCAG 2 contrast ratio behind the text (10th percentile of its pixels, lowest block). */
  contrast: number;
  /** How much the photo was enlarged to cover the card: 1 its own size; below 1, shrunk. */
  backgroundScale: number;
  /** Subjects found; null when not looked for (see images/schemas.ts for when). */
  subjects: ReportedSubject[] | null;
  /** What makes the card worse than it could be, in words to show a person. */
  warnings: string[];
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

/** Who a render is for, and what to measure (the third argument of {@link Renderer.render}). */
export interface RenderCall {
  /**
   * The account the render is for: render turns are shared round robin between accounts
   * (turns.ts), so one account's queue of slow renders does not hold another's. Default one
   * shared account (the warm-up, tests, the benchmark).
   */
  account?: string | undefined;
  /** The result carries {@link InkMeasurement} (tests and `npm run bench`). */
  measure?: boolean | undefined;
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
  /**
   * The subject detector of `focus` `auto` and `template` `auto` (photo/subjects.ts); default the
   * process's own, made on first use. The composition root (src/runtime.ts) gives its own.
   */
  detector?: SubjectDetector | undefined;
}

export interface Renderer {
  /**
   * Renders a titled image. Throws ValidationError (field `image`) for an input that is not a
   * decodable JPEG, PNG or WebP within the pixel limit; any other error is a fault of ours.
   * It waits for `call.account`'s turn (turns.ts: round robin between accounts). With
   * `call.measure`, the result carries {@link InkMeasurement} (for tests and `npm run bench`).
   */
  render(input: ImageInput, options: RenderOptions, call?: RenderCall): Promise<RenderResult>;
  /**
   * Lays the texts out without a photo (`POST /layout`): the report of what `render` would set.
   * `template: auto` needs the photo to choose, so it is laid out as bottom-left here (and
   * reported so). Milliseconds, once the fonts it needs are loaded (text/fonts.ts `FontLibrary.prepare`).
   */
  layout(options: RenderOptions): Promise<LayoutReport>;
  /**
   * A card re-encoded for a person to look at (encode/encode.ts `encodeForDisplay`), in
   * `call.account`'s render turn like a render: the playground's preview, the studio's large view.
   */
  display(
    image: Buffer,
    how: DisplayEncoding,
    call?: Pick<RenderCall, 'account'>,
  ): Promise<{ body: Buffer; width: number; height: number }>;
  /**
   * Runs `work` (other image work of a request: a link-preview check's decode, its mock-ups) in
   * `account`'s render turn, shared fairly with every account's renders (turns.ts).
   */
  inTurn<T>(account: string, work: () => Promise<T>): Promise<T>;
  /** Renders under way and waiting for a turn, and what an admission needs to expect a wait. */
  load(): RendererLoad;
  /**
   * What of the renderer is degraded: `subjects`, why the subject detector failed (until it next
   * answers), undefined when it works or has not started. `GET /readyz` reports it.
   */
  health(): { subjects: string | undefined };
}

/** {@link Renderer.load}. */
export interface RendererLoad {
  active: number;
  waiting: number;
  /** Most renders at once (RendererOptions.concurrency). */
  concurrency: number;
  /**
   * Recent time a render holds its turn, ms: a moving average (each render weighs
   * index.ts `RENDER_TIME_WEIGHT`), from index.ts `INITIAL_RENDER_MS` before the first.
   */
  meanRenderMs: number;
}
