/**
 * The link-preview check (docs/previews.md): `POST /previews {url}` fetches a page, its robots.txt
 * and its images through the SSRF-safe fetcher (src/adapters/safe-fetch.ts: a page 1 MiB in 5 s, an
 * image 10 MB in 10 s, no private address), judges what each platform will show (check.ts), and
 * keeps the report and the images a day, from which a mock-up per platform is drawn on request
 * (mockups.ts). Checks share the playground's budget of 60 a minute per workspace (images/previews.ts
 * `PREVIEW_LIMIT`); the images are decoded within the render turns of the workspace, as previews
 * are, so a check of a huge image waits its turn and does not hold another account's card.
 */
import { createRequire } from 'node:module';
import type { Principal } from '../workspaces/roles.js';
import { NotFoundError, TitlecardError, TooManyAttemptsError, ValidationError } from '../kernel/errors.js';
import { idPattern, newId } from '../kernel/ids.js';
import type { BlobStore, Clock, ProbeFetcher, Throttle } from '../kernel/ports.js';
import { parseOrThrow } from '../kernel/validate.js';
import { decodePage } from '../sites/page.js';
import { judge, type ImageFacts } from './check.js';
import { previewBodySchema, type PreviewReport } from './schemas.js';
import { PLATFORM_IDS, PLATFORMS, type PlatformId } from './platforms.js';
import { firstTag, readTags, type PageTags } from './tags.js';
import { Semaphore } from 'async-mutex';
import { drawMockup } from './mockups.js';
import { inspectImage } from '../render/index.js';
import { LINK_PREVIEW_TTL_MS } from '../images/files.js';

/** How long a report and its mock-ups are kept, ms: a day (images/files.ts). */
const REPORT_TTL_MS = LINK_PREVIEW_TTL_MS;
/** Most distinct images a check fetches: the one each platform reads (og:image or twitter:image, in practice). */
const MAX_IMAGES = 4;
/** Checks under way at once in a process (ours): each holds up to 40 MB of a page and images for up to 20 s. */
const CHECKS_AT_ONCE = 4;
/** Side the fetched images are kept within for the mock-ups, px (a mock-up draws them 520 px wide at most). */
const KEPT_SIDE = 1000;

/** A stored report: the API's, with the blob keys of its images. */
interface Stored {
  report: PreviewReport;
  workspaceId: string;
  /** Blob keys of the kept images, by their URL. */
  kept: Record<string, string>;
}

export interface LinkPreviews {
  /**
   * Checks the page `body.url` for every platform. Throws ValidationError on `url` (not an http or
   * https URL, a refused address), TooManyAttemptsError past 60 previews and checks a minute per
   * workspace (shared with the playground).
   */
  check(principal: Principal, body: unknown): Promise<PreviewReport>;
  /** The report `id` of the principal's workspace; NotFoundError when unknown, another's or a day old. */
  get(principal: Principal, id: string): Promise<PreviewReport>;
  /** The mock-up PNG of report `id` on `platform`; NotFoundError as {@link get}, or for a platform not in the table. */
  mockup(principal: Principal, id: string, platform: string): Promise<Buffer>;
}

export interface LinkPreviewDeps {
  blobs: BlobStore;
  clock: Clock;
  fetch: ProbeFetcher;
  /** The playground's throttle (60 a minute per workspace). */
  throttle: Throttle;
  /** Runs `work` in the workspace's render turn (the renderer's fair share). */
  inTurn: <T>(account: string, work: () => Promise<T>) => Promise<T>;
  /** `PUBLIC_URL`: the mock-ups' URLs. */
  publicUrl: string;
}

/** What robots-parser answers: whether a user agent may fetch a URL (undefined: another host's URL). */
interface Robots {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}
// robots-parser is CommonJS whose module is the function itself.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => Robots;

const ID = idPattern('lpv');
const reportKey = (id: string) => `${id}_report.json`;

export function createLinkPreviews(deps: LinkPreviewDeps): LinkPreviews {
  const { blobs, clock, fetch } = deps;
  const checks = new Semaphore(CHECKS_AT_ONCE);

  async function load(principal: Principal, id: string): Promise<Stored> {
    const blob = ID.test(id) ? await blobs.get(reportKey(id)) : undefined;
    const stored = blob ? (JSON.parse(blob.body.toString('utf8')) as Stored) : undefined;
    if (!stored || stored.workspaceId !== principal.workspace.id)
      throw new NotFoundError(`No link-preview check with id ${id} on this workspace`);
    if (Date.parse(stored.report.expiresAt) <= clock.now().getTime()) {
      const mockups = PLATFORM_IDS.map((platform) => `${id}_${platform}.png`);
      await Promise.all(
        [reportKey(id), ...Object.values(stored.kept), ...mockups].map((k) => blobs.delete(k)),
      );
      throw new NotFoundError(`The link-preview check ${id} is more than a day old: check the page again`);
    }
    return stored;
  }

  /** Fetches one image and reads what it is; never throws (a failure is in `error`). */
  async function probeImage(url: string, account: string): Promise<{ facts: ImageFacts; kept?: Buffer }> {
    const started = performance.now();
    try {
      const answer = await fetch(url, 'image');
      const facts: ImageFacts = {
        url,
        status: answer.status,
        ms: answer.ms,
        contentType: answer.contentType,
        bytes: answer.body.length,
      };
      if (answer.status < 200 || answer.status >= 300) return { facts };
      const seen = await deps.inTurn(account, () => inspectImage(answer.body, KEPT_SIDE));
      if (!seen) return { facts };
      return {
        facts: { ...facts, format: seen.format, width: seen.width, height: seen.height },
        kept: seen.kept,
      };
    } catch (err) {
      const message =
        err instanceof TitlecardError ? err.message.replace(/^Could not fetch url: /, '') : String(err);
      return { facts: { url, error: message, ms: performance.now() - started } };
    }
  }

  return {
    async check(principal, body) {
      const { url } = parseOrThrow(previewBodySchema, body);
      if (!/^https?:$/.test(new URL(url).protocol))
        throw new ValidationError(
          'url',
          'format',
          `Expected an http or https URL for url but received ${url.slice(0, 200)}`,
        );
      // The playground's budget (images/previews.ts), shared: 60 previews and checks a minute.
      const wait = await deps.throttle.hit(`preview:${principal.workspace.id}`);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'previews and link-preview checks');
      return checks.runExclusive(() => checkPage(principal, url));
    },

    async get(principal, id) {
      return (await load(principal, id)).report;
    },

    async mockup(principal, id, platform) {
      return mockupOf(principal, id, platform);
    },
  };

  async function checkPage(principal: Principal, url: string): Promise<PreviewReport> {
    const account = principal.workspace.id;
    const now = clock.now();
    const id = newId('lpv');

    // The page: a refused address or a URL that is not one is the caller's error (400); a page
    // that answers badly is the report's first problem.
    const started = performance.now();
    let page: Awaited<ReturnType<ProbeFetcher>> | undefined;
    let pageError: string | undefined;
    try {
      page = await fetch(url, 'page');
    } catch (err) {
      if (err instanceof ValidationError && /not allowed|not a valid URL/.test(err.message)) throw err;
      pageError =
        err instanceof TitlecardError ? err.message.replace(/^Could not fetch url: /, '') : String(err);
    }
    let tags: PageTags | undefined;
    if (page && page.status >= 200 && page.status < 300) {
      if (/html|xml|text\/plain/i.test(page.contentType))
        tags = readTags(decodePage(page.body, page.contentType));
      else pageError = `it is ${page.contentType || 'of no Content-Type'}, not HTML`;
    } else if (page) pageError = `it answered ${page.status}`;
    const finalUrl = page?.url ?? url;

    // robots.txt of the page's origin: missing or unreadable means everything is allowed
    // (RFC 9309 section 2.3.1.3: a 4xx; unreachable is treated as allowed here, as most crawlers do).
    let robots: Robots | undefined;
    if (tags) {
      const robotsUrl = `${new URL(finalUrl).origin}/robots.txt`;
      try {
        const answer = await fetch(robotsUrl, 'robots');
        if (answer.status >= 200 && answer.status < 300)
          robots = robotsParser(robotsUrl, answer.body.toString('utf8'));
      } catch {
        robots = undefined;
      }
    }

    // The images the platforms read, each fetched once.
    const images = new Map<string, ImageFacts>();
    const keptImages = new Map<string, Buffer>();
    if (tags) {
      // The image each platform reads (the first of its tags the page has): two or three at most.
      const urls = new Set<string>();
      for (const rules of PLATFORMS) {
        const value = firstTag(tags, rules.image)?.value;
        if (value && /^https?:\/\//i.test(value) && URL.canParse(value)) urls.add(new URL(value).href);
      }
      const probed = await Promise.all([...urls].slice(0, MAX_IMAGES).map((u) => probeImage(u, account)));
      for (const { facts, kept } of probed) {
        images.set(facts.url, facts);
        if (kept) keptImages.set(facts.url, kept);
      }
    }

    const judged = judge({
      url: finalUrl,
      ...(tags ? { tags } : {}),
      ...(pageError ? { pageError } : {}),
      images,
      allowed: (token) => robots?.isAllowed(finalUrl, token) ?? true,
    });
    const kept: Record<string, string> = {};
    let n = 0;
    for (const [imageUrl, bytes] of keptImages) {
      const key = `${id}_image${n++}.jpg`;
      await blobs.put(key, bytes, 'image/jpeg');
      kept[imageUrl] = key;
    }
    const report: PreviewReport = {
      id,
      url,
      finalUrl,
      checkedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + REPORT_TTL_MS).toISOString(),
      page: {
        status: page?.status ?? 0,
        contentType: page?.contentType || null,
        bytes: page?.body.length ?? 0,
        ms: Math.round(page?.ms ?? performance.now() - started),
        error: pageError ?? null,
      },
      tags: tags
        ? {
            title: tags.title ?? null,
            description: tags.meta.description ?? null,
            canonical: tags.canonical ?? null,
            meta: Object.fromEntries(Object.entries(tags.meta).filter(([k]) => /^(og|twitter):/.test(k))),
          }
        : null,
      images: [...images.values()].map((f) => ({
        url: f.url,
        status: f.status ?? null,
        contentType: f.contentType || null,
        format: f.format ?? null,
        width: f.width ?? null,
        height: f.height ?? null,
        bytes: f.bytes ?? null,
        ms: Math.round(f.ms),
        error: f.error ?? null,
      })),
      platforms: judged.platforms.map((p) => ({
        ...p,
        mockupUrl: `${deps.publicUrl}/api/previews/${id}/${p.platform}.png`,
      })),
      problems: judged.problems,
    };
    const stored: Stored = { report, workspaceId: account, kept };
    await blobs.put(reportKey(id), Buffer.from(JSON.stringify(stored)), 'application/json');
    return report;
  }

  async function mockupOf(principal: Principal, id: string, platform: string): Promise<Buffer> {
    const stored = await load(principal, id);
    if (!(PLATFORM_IDS as readonly string[]).includes(platform))
      throw new NotFoundError(`No platform ${platform}: expected one of ${PLATFORM_IDS.join(', ')}`);
    const preview = stored.report.platforms.find((p) => p.platform === (platform as PlatformId));
    if (!preview) throw new NotFoundError(`No platform ${platform} in check ${id}`);
    const key = `${id}_${platform}.png`;
    const cached = await blobs.get(key);
    if (cached) return cached.body;
    const imageKey = preview.image ? stored.kept[preview.image.url] : undefined;
    const image = imageKey ? (await blobs.get(imageKey))?.body : undefined;
    const png = await deps.inTurn(principal.workspace.id, () =>
      drawMockup(preview, image, stored.report.problems),
    );
    await blobs.put(key, png, 'image/png');
    return png;
  }
}
