/**
 * The link-preview check's judgement (docs/previews.md): from what was fetched (the page's tags, its
 * images, robots.txt), what each platform of platforms.ts will show (its card, the title and
 * description as it cuts them, the crop of the image at its aspect) and what is wrong, each
 * problem with a stable code, a severity and how to fix it. Pure: link-previews.ts fetches.
 */
import { cutGraphemes } from '../text.js';
import { firstTag, type PageTags } from './tags.js';
import { PLATFORMS, type CardKind, type PlatformId, type PlatformRules } from './platforms.js';

/** The codes a problem can have (docs/previews.md#problems), as the API names them. */
export const PROBLEM_CODES = [
  'PAGE_UNREACHABLE',
  'NO_TITLE',
  'NO_IMAGE',
  'IMAGE_RELATIVE_URL',
  'IMAGE_NOT_HTTPS',
  'IMAGE_UNREACHABLE',
  'IMAGE_NOT_AN_IMAGE',
  'IMAGE_TOO_SMALL',
  'IMAGE_TOO_LARGE',
  'IMAGE_ASPECT',
  'IMAGE_SIZE_UNDECLARED',
  'NO_ALT',
  'NO_TWITTER_CARD',
  'TITLE_TOO_LONG',
  'CRAWLER_BLOCKED',
  'SLOW_IMAGE',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
export type Severity = 'error' | 'warning' | 'info';

export interface Problem {
  code: ProblemCode;
  severity: Severity;
  /** What is wrong and how to fix it. */
  message: string;
  /** The platforms it concerns. */
  platforms: PlatformId[];
}

/** What fetching an image gave: its status or the reason it failed, its time, and what it holds. */
export interface ImageFacts {
  /** The absolute URL fetched. */
  url: string;
  /** HTTP status of the last answer; undefined when there was none. */
  status?: number;
  /** Why there was no answer (refused address, timeout, connection refused), or it was too large. */
  error?: string;
  /** Milliseconds from the request to the last byte (or the failure). */
  ms: number;
  contentType?: string;
  bytes?: number;
  /** The format its bytes are (magic numbers and header), undefined when they are no image. */
  format?: string;
  width?: number;
  height?: number;
}

export interface CheckInput {
  /** The page's URL after redirects. */
  url: string;
  /** The page's answer: undefined when it could not be fetched (then `pageError` says why). */
  tags?: PageTags;
  pageError?: string;
  /** The images fetched, by the absolute URL the tags give. */
  images: ReadonlyMap<string, ImageFacts>;
  /** Whether robots.txt lets the crawler with robots token `token` fetch the page. */
  allowed: (token: string) => boolean;
}

/** A crop of an image, px of the image. */
export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlatformPreview {
  platform: PlatformId;
  name: string;
  /** The card it will show; `none` when it will show no preview at all. */
  card: CardKind | 'none';
  /** The title as it will show it (cut with an ellipsis past its length); null when none. */
  title: string | null;
  description: string | null;
  /** The page's host, as most platforms print it under the text. */
  domain: string;
  /** The image it will show and its crop; null when none. */
  image: { url: string; width: number; height: number; crop: Crop } | null;
  /** Codes of the problems that concern it. */
  problems: ProblemCode[];
}

/** The centred crop of a `width × height` image at `aspect`; the whole image when `aspect` is undefined. */
export function cropAt(width: number, height: number, aspect: number | undefined): Crop {
  if (aspect === undefined) return { x: 0, y: 0, width, height };
  if (width / height > aspect) {
    const w = Math.round(height * aspect);
    return { x: Math.round((width - w) / 2), y: 0, width: w, height };
  }
  const h = Math.round(width / aspect);
  return { x: 0, y: Math.round((height - h) / 2), width, height: h };
}

/** Share of an image's area a crop at `aspect` cuts off beyond which IMAGE_ASPECT is reported (ours). */
export const ASPECT_LOSS = 0.2;

const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;

/** The absolute URL of an image tag's value, or that it is relative, or that it is no URL at all. */
function absoluteImage(value: string, page: URL): { url: string } | { relative: string } | { invalid: true } {
  if (/^https?:\/\//i.test(value))
    return URL.canParse(value) ? { url: new URL(value).href } : { invalid: true };
  return URL.canParse(value, page.href) ? { relative: new URL(value, page).href } : { invalid: true };
}

/** Judges the page for every platform: what each will show, and the problems. */
export function judge(input: CheckInput): { platforms: PlatformPreview[]; problems: Problem[] } {
  const page = new URL(input.url);
  const found = new Map<ProblemCode, Problem>();
  /** Adds `platform` to problem `code` (made with `severity` and `message` the first time). */
  const report = (code: ProblemCode, platform: PlatformId, severity: Severity, message: string) => {
    const known = found.get(code);
    if (known) {
      if (!known.platforms.includes(platform)) known.platforms.push(platform);
      if (severity === 'error' && known.severity !== 'error') known.severity = 'error';
      return;
    }
    found.set(code, { code, severity, message, platforms: [platform] });
  };
  /** Per-platform details appended to a problem's message (limits that differ). */
  const details = new Map<ProblemCode, string[]>();
  const detail = (code: ProblemCode, text: string) => details.set(code, [...(details.get(code) ?? []), text]);

  const platforms = PLATFORMS.map((rules): PlatformPreview => {
    const preview: PlatformPreview = {
      platform: rules.id,
      name: rules.name,
      card: 'none',
      title: null,
      description: null,
      domain: page.host,
      image: null,
      problems: [],
    };
    if (!input.tags) {
      report(
        'PAGE_UNREACHABLE',
        rules.id,
        'error',
        `The page could not be read (${input.pageError ?? 'no answer'}): no platform can show a preview until it answers 200 with HTML.`,
      );
      return preview;
    }
    if (rules.crawler.robotsToken && !input.allowed(rules.crawler.robotsToken)) {
      report(
        'CRAWLER_BLOCKED',
        rules.id,
        'error',
        'robots.txt disallows these crawlers, which then show no preview: allow their user agents (Allow: / under their User-agent lines).',
      );
      detail('CRAWLER_BLOCKED', `${rules.name} (${rules.crawler.robotsToken})`);
      return preview;
    }
    judgeTexts(input.tags, rules, preview, report, detail);
    judgeImage(input, page, rules, preview, report, detail);
    return preview;
  });
  for (const [code, texts] of details) {
    const problem = found.get(code);
    if (problem) problem.message = `${problem.message} ${[...new Set(texts)].join('; ')}.`;
  }
  const problems = PROBLEM_CODES.flatMap((code) => {
    const p = found.get(code);
    return p ? [p] : [];
  });
  for (const preview of platforms)
    preview.problems = problems.filter((p) => p.platforms.includes(preview.platform)).map((p) => p.code);
  return { platforms, problems };
}

type Report = (code: ProblemCode, platform: PlatformId, severity: Severity, message: string) => void;
type Detail = (code: ProblemCode, text: string) => void;

function judgeTexts(
  tags: PageTags,
  rules: PlatformRules,
  preview: PlatformPreview,
  report: Report,
  detail: Detail,
) {
  const title = firstTag(tags, rules.title);
  if (!title) {
    report(
      'NO_TITLE',
      rules.id,
      'error',
      'The page has no og:title and no <title>: add <meta property="og:title" content="…">.',
    );
  } else {
    preview.title = cutGraphemes(title.value, rules.titleMax);
    if (preview.title !== title.value) {
      report(
        'TITLE_TOO_LONG',
        rules.id,
        'warning',
        'The title is cut with an ellipsis: keep it within the shortest of these lengths, or give a shorter og:title.',
      );
      detail('TITLE_TOO_LONG', `${rules.name} shows ${rules.titleMax} characters`);
    }
  }
  const description = rules.descriptionMax > 0 ? firstTag(tags, rules.description) : undefined;
  if (description) preview.description = cutGraphemes(description.value, rules.descriptionMax);
  if ((rules.id === 'x' || rules.id === 'discord') && !tags.meta['twitter:card'])
    report(
      'NO_TWITTER_CARD',
      rules.id,
      'warning',
      'Without <meta name="twitter:card" content="summary_large_image"> X and Discord show a small thumbnail, not the image wide.',
    );
}

function judgeImage(
  input: CheckInput,
  page: URL,
  rules: PlatformRules,
  preview: PlatformPreview,
  report: Report,
  detail: Detail,
) {
  const tags = input.tags as PageTags;
  const tag = firstTag(tags, rules.image);
  preview.card = 'text';
  if (!tag) {
    report(
      'NO_IMAGE',
      rules.id,
      'error',
      'The page names no image: add <meta property="og:image" content="https://…/card.png"> (1200×630), or a Titlecard render or site link.',
    );
    return;
  }
  const where = absoluteImage(tag.value, page);
  if ('invalid' in where) {
    report(
      'IMAGE_UNREACHABLE',
      rules.id,
      'error',
      `The image's URL (${tag.value.slice(0, 200)}) is not a URL: give the whole https URL of the image.`,
    );
    return;
  }
  if ('relative' in where) {
    report(
      'IMAGE_RELATIVE_URL',
      rules.id,
      'error',
      `The image's URL (${tag.value}) is relative, which crawlers do not resolve: give the whole URL, ${where.relative}.`,
    );
    return;
  }
  if (page.protocol === 'https:' && where.url.startsWith('http:'))
    report(
      'IMAGE_NOT_HTTPS',
      rules.id,
      'warning',
      `The page is https but its image is http (${where.url}): serve the image over https, as several platforms refuse mixed content.`,
    );
  const image = input.images.get(where.url);
  if (!image || image.status === undefined || image.status < 200 || image.status >= 300) {
    const why = image?.error ?? (image?.status === undefined ? 'no answer' : `it answered ${image.status}`);
    report(
      'IMAGE_UNREACHABLE',
      rules.id,
      'error',
      `The image ${where.url} could not be fetched (${why}): make it answer 200 to anyone, crawlers included.`,
    );
    return;
  }
  if (!image.format || !image.width || !image.height) {
    report(
      'IMAGE_NOT_AN_IMAGE',
      rules.id,
      'error',
      `${where.url} is not an image (${image.contentType || 'no Content-Type'}${image.bytes ? `, ${kb(image.bytes)}` : ''}): point og:image at a JPEG, PNG or WebP file.`,
    );
    return;
  }
  if (image.ms > rules.imageWaitMs) {
    report(
      'SLOW_IMAGE',
      rules.id,
      'warning',
      `The image took ${Math.round(image.ms)} ms to arrive, longer than these platforms wait: serve it from a cache or CDN.`,
    );
    detail('SLOW_IMAGE', `${rules.name} waits ${rules.imageWaitMs / 1000} s`);
  }
  if (
    (image.bytes ?? 0) > rules.maxImageBytes ||
    (rules.maxImageSide && Math.max(image.width, image.height) > rules.maxImageSide)
  ) {
    report(
      'IMAGE_TOO_LARGE',
      rules.id,
      'error',
      `The image (${image.width}×${image.height}, ${kb(image.bytes ?? 0)}) is larger than these platforms take, so they show none: make it smaller (a 1200×630 JPEG is about 100 KB).`,
    );
    detail(
      'IMAGE_TOO_LARGE',
      `${rules.name} takes ${kb(rules.maxImageBytes)}${rules.maxImageSide ? ` and ${rules.maxImageSide} px` : ''}`,
    );
    return;
  }
  if (image.width < rules.minImage.width || image.height < rules.minImage.height) {
    report(
      'IMAGE_TOO_SMALL',
      rules.id,
      'error',
      `The image (${image.width}×${image.height}) is smaller than these platforms show: use 1200×630.`,
    );
    detail('IMAGE_TOO_SMALL', `${rules.name} needs ${rules.minImage.width}×${rules.minImage.height}`);
    return;
  }
  preview.card = kindOf(rules, tags, image.width, image.height);
  if (rules.kind === 'min-large' && preview.card === 'small') {
    report(
      'IMAGE_TOO_SMALL',
      rules.id,
      'warning',
      `The image (${image.width}×${image.height}) is too small for a large card, so these platforms show a thumbnail: use 1200×630.`,
    );
    detail(
      'IMAGE_TOO_SMALL',
      `${rules.name} shows it large from ${rules.large?.width}×${rules.large?.height}`,
    );
  }
  const aspect = preview.card === 'large' ? rules.largeAspect : rules.smallAspect;
  const crop = cropAt(image.width, image.height, aspect);
  preview.image = { url: where.url, width: image.width, height: image.height, crop };
  const lost = 1 - (crop.width * crop.height) / (image.width * image.height);
  if (preview.card === 'large' && lost > ASPECT_LOSS) {
    report(
      'IMAGE_ASPECT',
      rules.id,
      'warning',
      `The image's aspect (${(image.width / image.height).toFixed(2)}:1) is cropped hard on these platforms: make it 1.91:1 (1200×630).`,
    );
    detail('IMAGE_ASPECT', `${rules.name} crops to ${aspect}:1, cutting ${Math.round(lost * 100)}%`);
  }
  if (SIZE_READERS.has(rules.id) && (!tags.meta['og:image:width'] || !tags.meta['og:image:height']))
    report(
      'IMAGE_SIZE_UNDECLARED',
      rules.id,
      'warning',
      'og:image:width and og:image:height are missing: these platforms may show no image on the first share, until they have measured it. Add both.',
    );
  if (!tags.meta['og:image:alt'] && !tags.meta['twitter:image:alt'])
    report(
      'NO_ALT',
      rules.id,
      'info',
      'The image has no text alternative: add <meta property="og:image:alt" content="…"> for screen readers.',
    );
}

/**
 * Platforms that read og:image:width and og:image:height to show the image before fetching it:
 * Facebook (Sharing: Images, "the first share"), LinkedIn (as Facebook, per preview tools), Discord
 * (Link previews: "or Discord must fetch the image to measure it").
 */
const SIZE_READERS = new Set<PlatformId>(['facebook', 'linkedin', 'discord']);

/** The card kind `rules` gives an image of `width × height` on a page with `tags`. */
function kindOf(rules: PlatformRules, tags: PageTags, width: number, height: number): CardKind {
  switch (rules.kind) {
    case 'twitter-card':
      return tags.meta['twitter:card'] === 'summary_large_image' ? 'large' : 'small';
    case 'landscape':
      return width > height ? 'large' : 'small';
    case 'always-large':
      return 'large';
    case 'min-large': {
      const large = rules.large ?? { width: 0, height: 0 };
      return width >= large.width && height >= large.height ? 'large' : 'small';
    }
  }
}
