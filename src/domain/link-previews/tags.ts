/**
 * The tags a link preview is drawn from, read by the parser sites read theirs with (sites/page.ts
 * `readHead`): every `<meta property|name content>` of the `og:`, `twitter:` and `description`
 * kinds, the `<title>` and `<link rel=canonical>`, each cut to {@link MAX_VALUE}. The first of each
 * name wins, as Open Graph parsers do; names are lower-cased.
 */
import { readHead } from '../sites/page.js';

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
 * at most), and a bound on what a report carries.
 */
export const MAX_VALUE = 2000;

/** Meta names kept (others, such as `viewport`, say nothing of a preview). */
const KEPT = /^(og:|twitter:|description$|theme-color$)/;

/** Reads {@link PageTags} from a page's HTML (at most the 1 MiB the page fetcher reads). */
export function readTags(html: string): PageTags {
  const head = readHead(html);
  const meta: Record<string, string> = {};
  for (const [key, value] of Object.entries(head.meta))
    if (KEPT.test(key)) meta[key] = value.trim().slice(0, MAX_VALUE);
  const tags: PageTags = { meta };
  const title = head.title.slice(0, MAX_VALUE).replace(/\s+/g, ' ').trim();
  if (title) tags.title = title;
  if (head.canonical) tags.canonical = head.canonical.slice(0, MAX_VALUE);
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
