/**
 * A link preview drawn as a platform shows it (docs/previews.md#mock-ups): the platform's card
 * (large: the image at its crop above the text; small: a thumbnail beside it; text alone; or no
 * preview and why), its colours, the page's domain, the title and description as the platform cuts
 * them, the image cropped at the platform's aspect. An SVG rasterised by resvg with its own text
 * layout (Inter, and the Noto fallbacks of the bundled fonts for other scripts), 560 px wide, PNG.
 * A sketch of each platform's look from its current apps, not their pixels.
 */
import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import { DEFAULT_FONTS_DIR } from '../render/index.js';
import type { PlatformPreview, Problem } from './check.js';
import { platformOf, type PlatformId } from './platforms.js';
import { escapeMarkup } from '../text.js';

/** Width of a mock-up, px. */
export const MOCKUP_WIDTH = 560;
const PAD = 20;
const CARD_WIDTH = MOCKUP_WIDTH - 2 * PAD;

/** Each platform's look: its page and card colours, corner radius, accent bar and text sizes. */
interface Look {
  page: string;
  card: string;
  border: string;
  text: string;
  muted: string;
  radius: number;
  /** A bar on the card's left (Slack, Discord, Telegram), or none. */
  bar?: string;
  titleSize: number;
  titleLines: number;
  descriptionLines: number;
  /** The domain above the title (Facebook, LinkedIn…) or below it. */
  domainFirst: boolean;
  /** X draws the domain over the image's corner instead. */
  domainOnImage?: boolean;
}

const LOOKS: Record<PlatformId, Look> = {
  x: {
    page: '#ffffff',
    card: '#ffffff',
    border: '#cfd9de',
    text: '#0f1419',
    muted: '#536471',
    radius: 16,
    titleSize: 15,
    titleLines: 1,
    descriptionLines: 2,
    domainFirst: true,
    domainOnImage: true,
  },
  facebook: {
    page: '#f0f2f5',
    card: '#f0f2f5',
    border: '#dddfe2',
    text: '#050505',
    muted: '#65676b',
    radius: 0,
    titleSize: 17,
    titleLines: 2,
    descriptionLines: 1,
    domainFirst: true,
  },
  linkedin: {
    page: '#f4f2ee',
    card: '#ffffff',
    border: '#e0dfdc',
    text: '#000000',
    muted: '#666666',
    radius: 0,
    titleSize: 15,
    titleLines: 2,
    descriptionLines: 0,
    domainFirst: false,
  },
  slack: {
    page: '#ffffff',
    card: '#ffffff',
    border: '#ffffff',
    text: '#1d1c1d',
    muted: '#616061',
    radius: 4,
    bar: '#dddddd',
    titleSize: 15,
    titleLines: 2,
    descriptionLines: 3,
    domainFirst: true,
  },
  discord: {
    page: '#313338',
    card: '#2b2d31',
    border: '#2b2d31',
    text: '#00a8fc',
    muted: '#dbdee1',
    radius: 4,
    bar: '#1e1f22',
    titleSize: 16,
    titleLines: 2,
    descriptionLines: 4,
    domainFirst: true,
  },
  imessage: {
    page: '#ffffff',
    card: '#e9e9eb',
    border: '#e9e9eb',
    text: '#000000',
    muted: '#8e8e93',
    radius: 18,
    titleSize: 15,
    titleLines: 2,
    descriptionLines: 0,
    domainFirst: false,
  },
  whatsapp: {
    page: '#efeae2',
    card: '#d9fdd3',
    border: '#d9fdd3',
    text: '#111b21',
    muted: '#667781',
    radius: 8,
    titleSize: 15,
    titleLines: 2,
    descriptionLines: 2,
    domainFirst: false,
  },
  telegram: {
    page: '#ffffff',
    card: '#ffffff',
    border: '#ffffff',
    text: '#000000',
    muted: '#707579',
    radius: 6,
    bar: '#3390ec',
    titleSize: 15,
    titleLines: 2,
    descriptionLines: 3,
    domainFirst: true,
  },
  mastodon: {
    page: '#191b22',
    card: '#282c37',
    border: '#393f4f',
    text: '#ffffff',
    muted: '#9baec8',
    radius: 8,
    titleSize: 15,
    titleLines: 2,
    descriptionLines: 2,
    domainFirst: true,
  },
  bluesky: {
    page: '#ffffff',
    card: '#ffffff',
    border: '#d4dbe2',
    text: '#0b0f14',
    muted: '#6f869f',
    radius: 12,
    titleSize: 15,
    titleLines: 3,
    descriptionLines: 2,
    domainFirst: false,
  },
};

const require = createRequire(import.meta.url);
const INTER = [
  `${DEFAULT_FONTS_DIR}/inter/Inter_400Regular.ttf`,
  `${DEFAULT_FONTS_DIR}/inter/Inter_700Bold.ttf`,
];
/** Fallback fonts for scripts Inter lacks, loaded only for texts that need them (each is megabytes). */
const FALLBACKS: [RegExp, string][] = [
  [/[\u3040-\u30ff]/, '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'],
  [/[\uac00-\ud7af]/, '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'],
  [/[\u4e00-\u9fff]/, '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'],
  [/[\u0600-\u06ff]/, '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'],
  [/[\u0590-\u05ff]/, '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf'],
  [/[\u0900-\u097f]/, '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf'],
  [/[\u0e00-\u0e7f]/, '@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf'],
];

/**
 * `text` in lines of at most `width` px at `size` px (Inter's mean advance, about 0.5 em; a wide
 * character 1 em), at most `lines` of them, the last cut with an ellipsis.
 */
export function wrap(text: string, size: number, width: number, lines: number): string[] {
  if (lines <= 0) return [];
  const advance = (s: string) =>
    [...s].reduce((w, ch) => w + (/[\u1100-\uffff]/.test(ch) ? size : size * 0.5), 0);
  const out: string[] = [];
  let line = '';
  // Words, or single characters for scripts without spaces.
  const words = text.split(/(\s+|(?<=[\u3000-\u9fff\uac00-\ud7af]))/).filter((w) => w && !/^\s+$/.test(w));
  for (const word of words) {
    const next = line ? `${line}${/[\u3000-\u9fff\uac00-\ud7af]$/.test(line) ? '' : ' '}${word}` : word;
    if (advance(next) <= width || !line) {
      line = next;
      continue;
    }
    out.push(line);
    line = word;
    if (out.length === lines) break;
  }
  if (out.length < lines && line) out.push(line);
  const cut = out.length === lines && out.join(' ').length < text.replace(/\s+/g, ' ').length;
  if (cut) {
    let last = out[lines - 1] as string;
    while (last.length > 1 && advance(`${last}…`) > width) last = last.slice(0, -1);
    out[lines - 1] = `${last.trimEnd()}…`;
  }
  return out.map((l) =>
    advance(l) > width ? `${[...l].slice(0, Math.floor(width / (size * 0.5)) - 1).join('')}…` : l,
  );
}

/** The text block's SVG at `(x, y)`, `width` wide: domain, title, description; and its height. */
function textBlock(
  preview: PlatformPreview,
  look: Look,
  x: number,
  y: number,
  width: number,
  withDomain: boolean,
) {
  const parts: string[] = [];
  let at = y;
  const line = (text: string, size: number, colour: string, weight: number) => {
    at += size * 1.3;
    parts.push(
      `<text x="${x}" y="${at - size * 0.3}" font-size="${size}" font-weight="${weight}" fill="${colour}">${escapeMarkup(text)}</text>`,
    );
  };
  const domain = () =>
    line(
      preview.platform === 'facebook' ? preview.domain.toUpperCase() : preview.domain,
      12,
      look.muted,
      400,
    );
  if (withDomain && look.domainFirst) domain();
  for (const l of wrap(preview.title ?? 'No title', look.titleSize, width, look.titleLines))
    line(l, look.titleSize, look.text, 700);
  if (preview.description)
    for (const l of wrap(preview.description, 13, width, look.descriptionLines)) line(l, 13, look.muted, 400);
  if (withDomain && !look.domainFirst) domain();
  return { svg: parts.join(''), height: at - y };
}

/**
 * The mock-up PNG of `preview` (check.ts), with `image` (the page's image, any size, JPEG or PNG)
 * drawn at its crop; `problems` gives the reason shown on a platform with no preview.
 */
export async function drawMockup(
  preview: PlatformPreview,
  image: Buffer | undefined,
  problems: readonly Problem[],
): Promise<Buffer> {
  const look = LOOKS[preview.platform];
  const rules = platformOf(preview.platform);
  const body: string[] = [];
  const defs: string[] = [];
  const x0 = PAD + (look.bar ? 4 : 0);
  const inner = CARD_WIDTH - (look.bar ? 4 : 0);
  let height: number;
  const href = image ? `data:image/jpeg;base64,${image.toString('base64')}` : undefined;
  const showImage = preview.image && href && preview.card !== 'none' && preview.card !== 'text';

  if (preview.card === 'none') {
    const reason = problems.find((p) => p.platforms.includes(preview.platform) && p.severity === 'error');
    const lines = wrap(`No preview: ${reason?.message ?? 'the page could not be read.'}`, 13, inner - 24, 4);
    body.push(
      ...lines.map(
        (l, i) =>
          `<text x="${x0 + 12}" y="${28 + i * 18}" font-size="13" fill="${look.muted}">${escapeMarkup(l)}</text>`,
      ),
    );
    height = 24 + lines.length * 18;
  } else if (preview.card === 'large' || !showImage) {
    let imageHeight = 0;
    if (showImage && preview.image) {
      const aspect = preview.image.crop.width / preview.image.crop.height;
      imageHeight = Math.min(Math.round(inner / aspect), 420);
      defs.push(
        `<clipPath id="img"><rect x="${x0}" y="0" width="${inner}" height="${imageHeight}" rx="${look.radius}"/></clipPath>`,
      );
      body.push(
        `<image href="${href}" x="${x0}" y="0" width="${inner}" height="${imageHeight}" preserveAspectRatio="xMidYMid slice" clip-path="url(#img)"/>`,
      );
      if (look.domainOnImage) {
        const label = preview.domain;
        const w = Math.round(label.length * 7.2 + 12);
        body.push(
          `<rect x="${x0 + 12}" y="${imageHeight - 30}" width="${w}" height="20" rx="4" fill="#000000" fill-opacity="0.77"/>`,
        );
        body.push(
          `<text x="${x0 + 18}" y="${imageHeight - 16}" font-size="12" fill="#ffffff">${escapeMarkup(label)}</text>`,
        );
      }
    }
    const text = textBlock(
      preview,
      look,
      x0 + 12,
      imageHeight + 6,
      inner - 24,
      !look.domainOnImage || !showImage,
    );
    body.push(text.svg);
    height = imageHeight + 6 + text.height + 12;
  } else {
    // A small card: the thumbnail at its crop beside the text.
    const size = 110;
    const aspect = preview.image ? preview.image.crop.width / preview.image.crop.height : 1;
    const w = Math.round(Math.min(size * aspect, 180));
    defs.push(
      `<clipPath id="img"><rect x="${x0}" y="0" width="${w}" height="${size}" rx="${Math.min(look.radius, 8)}"/></clipPath>`,
    );
    body.push(
      `<image href="${href}" x="${x0}" y="0" width="${w}" height="${size}" preserveAspectRatio="xMidYMid slice" clip-path="url(#img)"/>`,
    );
    const text = textBlock(preview, look, x0 + w + 12, 6, inner - w - 24, true);
    body.push(text.svg);
    height = Math.max(size, text.height + 12);
  }

  const top = 44;
  const total = top + height + PAD;
  const kind = { large: 'large image', small: 'small thumbnail', text: 'text only', none: 'no preview' }[
    preview.card
  ];
  const header = `<text x="${PAD}" y="28" font-size="14" font-weight="700" fill="${look.muted}">${escapeMarkup(rules.name)} · ${kind}</text>`;
  const card = `<rect x="${PAD}" y="0" width="${CARD_WIDTH}" height="${height}" rx="${look.radius}" fill="${look.card}" stroke="${look.border}"/>${
    look.bar ? `<rect x="${PAD}" y="0" width="4" height="${height}" rx="2" fill="${look.bar}"/>` : ''
  }`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${MOCKUP_WIDTH}" height="${total}" viewBox="0 0 ${MOCKUP_WIDTH} ${total}" font-family="Inter, Noto Sans JP, Noto Sans KR, Noto Sans SC, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans Thai"><defs>${defs.join('')}</defs><rect width="100%" height="100%" fill="${look.page}"/>${header}<g transform="translate(0 ${top})">${card}${body.join('')}</g></svg>`;
  const texts = `${preview.title ?? ''} ${preview.description ?? ''}`;
  const fontFiles = [
    ...INTER,
    ...FALLBACKS.filter(([script]) => script.test(texts)).map(([, file]) => require.resolve(file)),
  ];
  const rendered = await renderAsync(svg, {
    font: { fontFiles, loadSystemFonts: false, defaultFontFamily: 'Inter' },
    fitTo: { mode: 'width', value: MOCKUP_WIDTH },
  });
  return rendered.asPng();
}
