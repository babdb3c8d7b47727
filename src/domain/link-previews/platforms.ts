/**
 * How each platform unfurls a link: which tags it reads (and their fallbacks), the card it shows,
 * the image sizes, bytes and aspect it takes, how much of the texts it shows, how long it waits,
 * and who its crawler is (the user agents it sends and the robots.txt token it obeys). One row per
 * platform, each number with its source: the platform's own documentation where it publishes one,
 * its source code where it is open, else a measurement or the convention of preview tools, named
 * as such (docs/previews.md#the-platforms). The link-preview check (check.ts) and the crawler log
 * (crawlers.ts) read only this table.
 */

/** The platforms the check draws, in the order reports list them. */
export const PLATFORM_IDS = [
  'x',
  'facebook',
  'linkedin',
  'slack',
  'discord',
  'imessage',
  'whatsapp',
  'telegram',
  'mastodon',
  'bluesky',
] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

/** Where a page's text or image comes from: a `<meta>` property or name, or the `<title>` element. */
export type TagName = string;

/** A card as a platform shows it: the image wide above the text, a thumbnail beside it, or text alone. */
export type CardKind = 'large' | 'small' | 'text';

export interface PlatformRules {
  id: PlatformId;
  name: string;
  /** Tags read for the title, the first present wins (`title`: the `<title>` element). */
  title: TagName[];
  /** Tags read for the description; empty when the platform shows none. */
  description: TagName[];
  /** Tags read for the image URL. */
  image: TagName[];
  /**
   * How the card's kind is chosen: `twitter-card` from `twitter:card` (`summary_large_image` large,
   * else small); `min-large` large when the image reaches {@link PlatformRules.large}, else small;
   * `landscape` large when the image is wider than tall; `always-large`.
   */
  kind: 'twitter-card' | 'min-large' | 'landscape' | 'always-large';
  /** Width and height, px, from which the card is large (`min-large`). */
  large?: { width: number; height: number };
  /** Smallest image shown at all, px; below it the card has no image. */
  minImage: { width: number; height: number };
  /** Largest image taken, px (either side); undefined when not published. */
  maxImageSide?: number;
  /** Most bytes of an image it takes. */
  maxImageBytes: number;
  /** Aspect (width ÷ height) a large card's image is cropped to; undefined: shown whole. */
  largeAspect?: number;
  /** Aspect a small card's thumbnail is cropped to; undefined: shown whole. */
  smallAspect?: number;
  /** Characters of the title shown before it is cut with an ellipsis. */
  titleMax: number;
  /** Characters of the description shown; 0 when it shows none. */
  descriptionMax: number;
  /** Milliseconds it waits for the image. */
  imageWaitMs: number;
  /** Its crawler: a pattern of its user agents, and the robots.txt token it obeys (undefined: it does not read robots.txt). */
  crawler: { userAgent: RegExp; robotsToken?: string; sample: string };
  /** Where the numbers come from. */
  source: string;
}

const OG_TITLE = ['og:title', 'title'];
const OG_DESCRIPTION = ['og:description', 'description'];

/** The table (docs/previews.md#the-platforms has it as prose, with the sources' addresses). */
export const PLATFORMS: readonly PlatformRules[] = [
  {
    id: 'x',
    name: 'X',
    title: ['twitter:title', 'og:title', 'title'],
    description: ['twitter:description', 'og:description'],
    image: ['twitter:image', 'twitter:image:src', 'og:image'],
    kind: 'twitter-card',
    minImage: { width: 144, height: 144 },
    maxImageSide: 4096,
    maxImageBytes: 5 * 1024 * 1024,
    largeAspect: 2,
    smallAspect: 1,
    titleMax: 70,
    descriptionMax: 200,
    imageWaitMs: 5000,
    crawler: { userAgent: /Twitterbot\/\d/i, robotsToken: 'Twitterbot', sample: 'Twitterbot/1.0' },
    source:
      'X developer docs, Cards markup and Summary card with large image (300×157 to 4096×4096, under 5 MB, 2:1; summary 144×144, 1:1; title 70, description 200); the wait is not published (ours: 5 s).',
  },
  {
    id: 'facebook',
    name: 'Facebook',
    title: OG_TITLE,
    description: OG_DESCRIPTION,
    image: ['og:image', 'og:image:url', 'og:image:secure_url'],
    kind: 'min-large',
    large: { width: 600, height: 315 },
    minImage: { width: 200, height: 200 },
    maxImageBytes: 8 * 1024 * 1024,
    largeAspect: 1.91,
    smallAspect: 1,
    titleMax: 88,
    descriptionMax: 160,
    imageWaitMs: 3000,
    crawler: {
      userAgent: /facebookexternalhit|Facebot|meta-externalfetcher/i,
      robotsToken: 'facebookexternalhit',
      sample: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    },
    source:
      'Meta for Developers, Sharing: Images (200×200 minimum, large from 600×315, 1.91:1, 8 MB) and Web crawlers ("within a few seconds": 3 s); text lengths not published (preview tools: 88 and 160).',
  },
  {
    id: 'linkedin',
    name: 'LinkedIn',
    title: OG_TITLE,
    description: OG_DESCRIPTION,
    image: ['og:image'],
    kind: 'min-large',
    large: { width: 401, height: 210 },
    minImage: { width: 200, height: 110 },
    maxImageBytes: 5 * 1024 * 1024,
    largeAspect: 1.91,
    smallAspect: 1,
    titleMax: 119,
    descriptionMax: 0,
    imageWaitMs: 5000,
    crawler: {
      userAgent: /LinkedInBot/i,
      robotsToken: 'LinkedInBot',
      sample: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    },
    source:
      'LinkedIn Help, Make your website shareable (1200×627 recommended, 1.91:1, 5 MB; narrower than 401 px shows as a thumbnail); the feed shows no description; title and wait not published (preview tools: 119 characters, 5 s).',
  },
  {
    id: 'slack',
    name: 'Slack',
    title: OG_TITLE,
    description: OG_DESCRIPTION,
    image: ['og:image', 'twitter:image'],
    kind: 'min-large',
    large: { width: 250, height: 150 },
    minImage: { width: 80, height: 80 },
    maxImageBytes: 5 * 1024 * 1024,
    titleMax: 150,
    descriptionMax: 300,
    imageWaitMs: 3000,
    crawler: {
      userAgent: /Slackbot|Slack-ImgProxy/i,
      sample: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    },
    source:
      'Slack, api.slack.com/robots (its user agents; it does not read robots.txt); the image is shown whole, sizes and waits not published (preview tools: large from 250×150, 5 MB, 3 s).',
  },
  {
    id: 'discord',
    name: 'Discord',
    title: ['og:title', 'twitter:title', 'title'],
    description: ['og:description', 'twitter:description', 'description'],
    image: ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'],
    kind: 'twitter-card',
    minImage: { width: 1, height: 1 },
    maxImageBytes: 50 * 1024 * 1024,
    titleMax: 70,
    descriptionMax: 350,
    imageWaitMs: 10_000,
    crawler: {
      userAgent: /Discordbot/i,
      robotsToken: 'Discordbot',
      sample: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    },
    source:
      'Discord developer docs, Link previews (discord-api-docs#8606: large image only with summary_large_image, title 70 and description 350 bytes, the whole fetch within 10 s, 50 MB); images shown whole.',
  },
  {
    id: 'imessage',
    name: 'iMessage',
    title: OG_TITLE,
    description: [],
    image: ['og:image'],
    kind: 'min-large',
    large: { width: 900, height: 1 },
    minImage: { width: 150, height: 1 },
    maxImageBytes: 10 * 1024 * 1024,
    largeAspect: 1.91,
    smallAspect: 1,
    titleMax: 44,
    descriptionMax: 0,
    imageWaitMs: 5000,
    crawler: {
      userAgent: /facebookexternalhit\/1\.1 Facebot Twitterbot\/1\.0/i,
      sample:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    },
    source:
      'Apple TN3156, Create rich previews for Messages (images at least 900 px wide, under 150 px ignored, 10 MB in all, no description); its user agent as logged (not published); title 44 characters (measured, avenuecode 2017); wait ours (5 s).',
  },
  {
    id: 'whatsapp',
    name: 'WhatsApp',
    title: OG_TITLE,
    description: OG_DESCRIPTION,
    image: ['og:image'],
    kind: 'min-large',
    large: { width: 300, height: 1 },
    minImage: { width: 100, height: 100 },
    maxImageBytes: 600 * 1024,
    largeAspect: 1.91,
    smallAspect: 1,
    titleMax: 65,
    descriptionMax: 80,
    imageWaitMs: 3000,
    crawler: { userAgent: /^WhatsApp\//i, robotsToken: 'WhatsApp', sample: 'WhatsApp/2.23.20.0 A' },
    source:
      'WhatsApp Business Platform, Link previews (image under 600 KB, at least 300 px wide, 4:1 at most; title 2 lines, description 80 characters); crop and wait not published (preview tools: 1.91:1, 3 s).',
  },
  {
    id: 'telegram',
    name: 'Telegram',
    title: ['og:title', 'twitter:title', 'title'],
    description: ['og:description', 'twitter:description', 'description'],
    image: ['og:image', 'twitter:image'],
    kind: 'min-large',
    large: { width: 400, height: 200 },
    minImage: { width: 100, height: 100 },
    maxImageBytes: 5 * 1024 * 1024,
    titleMax: 100,
    descriptionMax: 200,
    imageWaitMs: 5000,
    crawler: {
      userAgent: /TelegramBot/i,
      robotsToken: 'TelegramBot',
      sample: 'TelegramBot (like TwitterBot)',
    },
    source:
      'Telegram publishes no rules; tags, user agent and sizes as preview tools measure them (large from 400×200, 5 MB, shown whole, 5 s).',
  },
  {
    id: 'mastodon',
    name: 'Mastodon',
    title: OG_TITLE,
    description: OG_DESCRIPTION,
    image: ['og:image'],
    kind: 'landscape',
    minImage: { width: 1, height: 1 },
    maxImageBytes: 2 * 1024 * 1024,
    largeAspect: 1.91,
    smallAspect: 1,
    titleMax: 100,
    descriptionMax: 200,
    imageWaitMs: 10_000,
    crawler: {
      userAgent: /Mastodon\//i,
      sample: 'http.rb/5.1.1 (Mastodon/4.2.0; +https://mastodon.social/) Bot',
    },
    source:
      'mastodon/mastodon source: fetch_link_card_service.rb (og:image only; no robots.txt), preview_card.rb (2 MB), request.rb (10 s read), card.tsx (large 1.91:1 when wider than tall, else square); text lengths by CSS (ours: 100, 200).',
  },
  {
    id: 'bluesky',
    name: 'Bluesky',
    title: ['og:title', 'twitter:title', 'title'],
    description: ['og:description', 'twitter:description', 'description'],
    image: ['og:image', 'twitter:image'],
    kind: 'always-large',
    minImage: { width: 1, height: 1 },
    maxImageSide: 2000,
    maxImageBytes: 1_000_000,
    largeAspect: 1.91,
    titleMax: 100,
    descriptionMax: 150,
    imageWaitMs: 15_000,
    crawler: {
      userAgent: /Bluesky Cardyb|cardyb/i,
      sample: 'Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)',
    },
    source:
      'bluesky-social source: lexicon app.bsky.embed.external (thumb 1,000,000 bytes, 2000×2000), ExternalLinkEmbed.tsx (1.91:1, title 3 lines, description 2), link-meta.ts (15 s); its user agent as logged.',
  },
];

/** The platform whose crawler sent `userAgent`, or undefined for any other client. */
export function crawlerOf(userAgent: string | undefined): PlatformRules | undefined {
  if (!userAgent) return undefined;
  // iMessage's user agent names Facebook's and X's crawlers too: it is matched first.
  const imessage = PLATFORMS.find((p) => p.id === 'imessage');
  if (imessage?.crawler.userAgent.test(userAgent)) return imessage;
  return PLATFORMS.find((p) => p.crawler.userAgent.test(userAgent));
}

/** The row of `id`. */
export function platformOf(id: PlatformId): PlatformRules {
  return PLATFORMS.find((p) => p.id === id) as PlatformRules;
}
