/**
 * A built-in template's (or a position's) layout of a title and subtitle, without a render: for the
 * layout tests, the bench and scripts/template-auto.ts. The service lays out every card through
 * `layoutDocument` (src/domain/render/text/layout.ts); this fills a built-in document and calls it.
 */
import type { Aspect, FontName } from '../../src/domain/design.js';
import type { LoadedFont, FontLibrary } from '../../src/domain/render/text/fonts.js';
import type { Rect } from '../../src/domain/render/geometry.js';
import {
  fillTexts,
  layoutDocument,
  type Placement,
  type TextLayout,
} from '../../src/domain/render/text/layout.js';
import { builtInDocument } from '../../src/domain/render/document/built-ins.js';

export interface LayoutRequest {
  aspect: Aspect;
  placement: Placement;
  title: string;
  subtitle?: string | undefined;
  /** A bundled family, or an uploaded font (both weights). */
  font: FontName | LoadedFont;
  /** Title size in px; automatic when undefined. */
  fontSize?: number | undefined;
  /** A rectangle the text must keep out of (a logo and its gap), px; the columns shrink vertically. */
  reserve?: Rect | undefined;
}

/**
 * Lays out a title and subtitle with a built-in template or a position: the document of
 * built-ins.ts, laid out by {@link layoutDocument}.
 */
export function layoutText(fonts: FontLibrary, req: LayoutRequest): TextLayout {
  const document =
    'template' in req.placement
      ? builtInDocument({ template: req.placement.template })
      : builtInDocument({ position: req.placement.position });
  return layoutDocument(fonts, {
    aspect: req.aspect,
    document,
    texts: fillTexts(document, { title: req.title, subtitle: req.subtitle }),
    font: req.font,
    fontSize: req.fontSize,
    reserve: req.reserve,
  });
}
