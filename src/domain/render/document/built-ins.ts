/**
 * The four built-in templates of docs/api.md#generate-options (bottom-left, left, right, split) as template documents,
 * and the documents of the API's positions (top, center, bottom, {x, y}): the layout engine knows
 * nothing else, so what a user copies from `GET /templates/bottom-left` is what draws the built-in.
 *
 * Their geometry (docs/api.md#generate-options, the templates, and our choices before templates were documents):
 *   bottom-left: left-aligned, anchored to the bottom of the safe zone, 80% of its width;
 *   left / right: the left or right 45% of the canvas, vertically centred, right-aligned for right;
 *   split: title in the left 30%, subtitle in the right 30% (right-aligned), sharing one size and
 *          one top edge;
 *   position top | center | bottom: centred text, 80% of the safe width;
 *   position {x, y}: centred text, 60% of the safe width, centred on the point inside the safe zone.
 * Sizes: the title 24 to 120 px (docs/api.md#limits), the subtitle 45% of it and at least 18 px. Most
 * lines, by the column's width (narrow columns hold fewer words a line): 4 title / 3 subtitle lines
 * in wide boxes, 6 / 4 in half-width columns, 10 / 8 in split's narrow ones; a default, which gives
 * way when it would set the title under 7% of the card's height (layout.ts, LEGIBLE_TITLE_FRACTION).
 */
import { LIMITS, TEMPLATES, type Template } from '../../design.js';
import type { RenderOptions } from '../types.js';
import { templateDocumentSchema, type TemplateDocument, type TemplateDocumentInput } from './document.js';

const TITLE = '{{title}}';
const SIZE = { min: LIMITS.fontSizeMin, max: LIMITS.fontSizeMax };
const BACKGROUND = { type: 'image', source: 'background', fit: 'cover' } as const;
const LOGO = { type: 'logo' } as const;
/** The subtitle under the title, 45% of its size and at least 18 px. */
const subtitle = (maxLines: number) => ({ content: '{{subtitle}}', scale: 0.45, minSize: 18, maxLines });
/** A full-height column of the safe zone from `x` to `x + w` (fractions of the canvas). */
const column = (x: number, w: number) => ({ box: { x, y: 0, w, h: 1 }, safeZone: true });

const DOCUMENTS: Record<Template, TemplateDocumentInput> = {
  'bottom-left': {
    name: 'Bottom left',
    layers: [
      BACKGROUND,
      { type: 'gradient', direction: 'to-top', color: 'auto' },
      {
        type: 'text',
        content: TITLE,
        ...column(0.05, 0.72),
        fontSize: SIZE,
        maxLines: 4,
        verticalAlign: 'bottom',
        below: subtitle(3),
      },
      LOGO,
    ],
  },
  left: {
    name: 'Left',
    layers: [
      BACKGROUND,
      { type: 'gradient', direction: 'to-right', color: 'auto' },
      {
        type: 'text',
        content: TITLE,
        ...column(0, 0.45),
        fontSize: SIZE,
        maxLines: 6,
        verticalAlign: 'center',
        below: subtitle(4),
      },
      LOGO,
    ],
  },
  right: {
    name: 'Right',
    layers: [
      BACKGROUND,
      { type: 'gradient', direction: 'to-left', color: 'auto' },
      {
        type: 'text',
        content: TITLE,
        ...column(0.55, 0.45),
        fontSize: SIZE,
        maxLines: 6,
        align: 'right',
        verticalAlign: 'center',
        below: subtitle(4),
      },
      LOGO,
    ],
  },
  split: {
    name: 'Split',
    layers: [
      BACKGROUND,
      { type: 'gradient', direction: 'to-center', color: 'auto' },
      {
        type: 'text',
        content: TITLE,
        ...column(0, 0.3),
        fontSize: SIZE,
        maxLines: 10,
        verticalAlign: 'center',
        group: 'split',
      },
      {
        type: 'text',
        content: '{{subtitle}}',
        ...column(0.7, 0.3),
        weight: 'regular',
        lineHeight: 1.3,
        fontSize: SIZE,
        maxLines: 8,
        align: 'right',
        verticalAlign: 'center',
        group: 'split',
        scale: 0.45,
        minSize: 18,
      },
      LOGO,
    ],
  },
};

/** The built-in templates' documents, parsed once (their defaults filled). */
export const BUILT_IN_TEMPLATES: Record<Template, TemplateDocument> = Object.fromEntries(
  TEMPLATES.map((t) => [t, templateDocumentSchema.parse(DOCUMENTS[t])]),
) as Record<Template, TemplateDocument>;

/** Whether `id` names a built-in template. */
export function isBuiltIn(id: string): id is Template {
  return (TEMPLATES as readonly string[]).includes(id);
}

/** The document of a spec position (docs/api.md#generate-options: used when no template is given). */
export function positionDocument(position: NonNullable<RenderOptions['position']>): TemplateDocument {
  const text = (over: Record<string, unknown>) => ({
    type: 'text',
    content: TITLE,
    fontSize: SIZE,
    maxLines: 4,
    align: 'center',
    below: subtitle(3),
    ...over,
  });
  let layers: unknown[];
  if (typeof position === 'string') {
    // 80% of the safe zone's width (0.9 of the canvas), centred: 0.14 to 0.86.
    layers = [
      BACKGROUND,
      {
        type: 'gradient',
        direction: position === 'top' ? 'to-bottom' : position === 'bottom' ? 'to-top' : 'radial',
      },
      text({ ...column(0.14, 0.72), verticalAlign: position }),
      LOGO,
    ];
  } else {
    // 60% of the safe zone's width (0.54 of the canvas), centred on x and kept inside the safe zone.
    const x = Math.min(Math.max(position.x - 0.27, 0.05), 0.41);
    layers = [
      BACKGROUND,
      { type: 'gradient', direction: 'radial' },
      text({ ...column(x, 0.54), verticalAlign: 'center', anchor: position }),
      LOGO,
    ];
  }
  return templateDocumentSchema.parse({ name: 'Position', layers });
}

/** The document a request without a `tpl_…` template draws: its template, else its position, else bottom-left. */
export function builtInDocument(options: {
  template?: Template | 'auto' | undefined;
  position?: RenderOptions['position'];
}): TemplateDocument {
  if (options.template && options.template !== 'auto') return BUILT_IN_TEMPLATES[options.template];
  if (!options.template && options.position !== undefined) return positionDocument(options.position);
  return BUILT_IN_TEMPLATES['bottom-left'];
}
