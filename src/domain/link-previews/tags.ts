/**
 * The tags a link preview is drawn from, read from a page's HTML with htmlparser2 (as sites read
 * theirs, sites/page.ts): every `<meta property|name content>` of the `og:`, `twitter:` and
 * `description` kinds, the `<title>` and `<link rel=canonical>`. The first of each name wins, as
 * Open Graph parsers do; names are lower-cased.
 */
import { Parser } from 'htmlparser2';

/** What {@link readTags} found. */
export interface PageTags {
  /** `og:*`, `twitter:*`, `description` and `theme-color`, by name (lower case), the first of each. */
  meta: Record<string, string>;
  /** The `<title>` element's text, white space collapsed; undefined when absent or empty. */
  title?: string;
  /** `<link rel="canonical" href>`. */
  canonical?: string;
}

/**
 * Most characters kept of a tag's value or the title (ours): far past what any platform shows (350
 * at most), and a bound on the work of cutting texts (grapheme segmentation grows with the text).
 */
export const MAX_VALUE = 2000;

/** Meta names kept (others, such as `viewport`, say nothing of a preview). */
const KEPT = /^(og:|twitter:|description$|theme-color$)/;

/** Reads {@link PageTags} from a page's HTML (at most the 1 MiB the page fetcher reads). */
export function readTags(html: string): PageTags {
  const meta: Record<string, string> = {};
  let title = '';
  let inTitle = false;
  let canonical: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title') inTitle = true;
        else if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
          if (KEPT.test(key) && attrs.content !== undefined && !(key in meta))
            meta[key] = attrs.content.trim();
        } else if (name === 'link' && /(^|\s)canonical(\s|$)/i.test(attrs.rel ?? '') && attrs.href)
          canonical ??= attrs.href.trim().slice(0, MAX_VALUE);
      },
      ontext(text) {
        if (inTitle && title.length < MAX_VALUE) title += text.slice(0, MAX_VALUE);
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const tags: PageTags = { meta };
  const text = title.replace(/\s+/g, ' ').trim().slice(0, MAX_VALUE);
  if (text) tags.title = text;
  if (canonical) tags.canonical = canonical;
  return tags;
}

/** The value of the first of `names` the page has (`title`: the `<title>` element), and which it was. */
export function firstTag(
  tags: PageTags,
  names: readonly string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = name === 'title' ? tags.title : tags.meta[name];
    if (value) return { name, value };
  }
  return undefined;
}
