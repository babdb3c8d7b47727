/**
 * What a site's card is drawn from, read from the page's HTML with htmlparser2 (a tolerant parser:
 * real pages are rarely valid HTML): the title, the description, `titlecard:*` fields, and the
 * site-verification tag.
 *
 * Precedence, most specific first: `titlecard:title` > `og:title` > `<title>`;
 * `titlecard:subtitle` > `og:description` (when the site asks for it); `titlecard:image` (an asset
 * id or an https URL) replaces the preset's background; `titlecard:field:<name>` fills the variable
 * `<name>` of the preset's template (docs/templates.md). Texts have their white space collapsed and
 * are cut to {@link LIMITS}.textMaxLength grapheme clusters with an ellipsis (docs/api.md#generate-options limit).
 */
import { Parser } from 'htmlparser2';
import { LIMITS } from '../design.js';
import { cutGraphemes } from '../text.js';

/** The name of the verification meta tag and of the file under `/.well-known/`. */
export const VERIFICATION_NAME = 'titlecard-site-verification';

/** What {@link readPage} found; a field is undefined when the page does not have it. */
export interface PageFacts {
  /** `titlecard:title`, else `og:title`, else `<title>`. */
  title?: string;
  /** `titlecard:subtitle`. */
  subtitle?: string;
  /** `og:description` (`description` is not used: it is often an SEO paragraph). */
  description?: string;
  /** `titlecard:image`: an asset id or an https URL. */
  image?: string;
  /** The content of `<meta name="titlecard-site-verification">`. */
  verification?: string;
  /** `titlecard:field:<name>`: the values of the preset's template's variables, by name. */
  fields?: Record<string, string>;
}

/** A template variable's meta tag: `titlecard:field:` and the variable's name, in its own case. */
const FIELD_META = /^titlecard:field:([A-Za-z][A-Za-z0-9_]{0,31})$/i;

/** White space collapsed, cut to the API's text limit with an ellipsis; undefined when empty. */
export function cleanText(raw: string | undefined): string | undefined {
  // \p{Cc}: the control characters, which a title may not hold (docs/api.md#generate-options text rule).
  const text = raw?.replace(/[\p{Cc}\s]+/gu, ' ').trim();
  if (!text) return undefined;
  return cutGraphemes(text, LIMITS.textMaxLength);
}

/**
 * The charset of a Content-Type header, as TextDecoder knows it; UTF-8 when absent or unknown
 * (a `<meta charset>` is not read: the WHATWG encoding sniffing is not worth it for a title).
 */
export function decodePage(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** What {@link readHead} found in a page's `<head>`, as written (values not cleaned). */
export interface PageHead {
  /** Every `<meta property|name content>`, by name in lower case, the first of each. */
  meta: Record<string, string>;
  /** `titlecard:field:<name>` tags by the name as written (a variable's name has its case). */
  fields: Record<string, string>;
  /** The `<title>` element's text. */
  title: string;
  /** `<link rel="canonical" href>`. */
  canonical?: string;
}

/**
 * The tags of a page's HTML, read with htmlparser2: the `<meta>` tags, the `<title>` and the
 * canonical link. The first of each name wins, as Open Graph parsers do. Sites read their cards'
 * texts from it ({@link readPage}), the link-preview check what platforms read (link-previews/tags.ts).
 */
export function readHead(html: string): PageHead {
  const head: PageHead = { meta: {}, fields: {}, title: '' };
  let inTitle = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title') inTitle = true;
        else if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
          if (key && attrs.content !== undefined && !(key in head.meta)) head.meta[key] = attrs.content;
          const field = FIELD_META.exec(attrs.property ?? attrs.name ?? '')?.[1];
          if (field && attrs.content !== undefined && !(field in head.fields))
            head.fields[field] = attrs.content;
        } else if (name === 'link' && /(^|\s)canonical(\s|$)/i.test(attrs.rel ?? '') && attrs.href)
          head.canonical ??= attrs.href.trim();
      },
      ontext(text) {
        if (inTitle) head.title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return head;
}

/** Reads {@link PageFacts} from a page's HTML. */
export function readPage(html: string): PageFacts {
  const { meta, fields: fieldTags, title: titleText } = readHead(html);
  const facts: PageFacts = {};
  const title = cleanText(meta['titlecard:title']) ?? cleanText(meta['og:title']) ?? cleanText(titleText);
  const entries: [Exclude<keyof PageFacts, 'fields'>, string | undefined][] = [
    ['title', title],
    ['subtitle', cleanText(meta['titlecard:subtitle'])],
    ['description', cleanText(meta['og:description'])],
    ['image', meta['titlecard:image']?.trim() || undefined],
    ['verification', meta[VERIFICATION_NAME]?.trim() || undefined],
  ];
  for (const [key, value] of entries) if (value !== undefined) facts[key] = value;
  const fields = Object.entries(fieldTags).flatMap(([name, value]) => {
    const text = cleanText(value);
    return text ? [[name, text] as const] : [];
  });
  if (fields.length > 0) facts.fields = Object.fromEntries(fields);
  return facts;
}
