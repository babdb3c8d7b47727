/** The sites' schemas: a site's body, the site and its pages as the API shows them (docs/sites.md). */
import { z } from 'zod';
import { isoTimestamp, recordIdSchema } from '../schemas.js';
import { textSchema } from '../text.js';
import { SITE_BUDGET_DEFAULT, SITE_BUDGET_MAX } from './budget.js';

/** A site's budget fields (sites/budget.ts), each optional. */
const budgetFields = {
  cardsPerHour: z
    .number()
    .int()
    .min(1)
    .max(SITE_BUDGET_MAX.cardsPerHour)
    .optional()
    .describe(
      `New cards the link may make per clock hour (UTC), 1 to ${SITE_BUDGET_MAX.cardsPerHour}; default ${SITE_BUDGET_DEFAULT.cardsPerHour}. Past it a page gets its earlier card or the fallback card, free.`,
    ),
  cardsPerMonth: z
    .number()
    .int()
    .min(1)
    .max(SITE_BUDGET_MAX.cardsPerMonth)
    .optional()
    .describe(
      `New cards the link may make per calendar month (UTC), 1 to ${SITE_BUDGET_MAX.cardsPerMonth}; default ${SITE_BUDGET_DEFAULT.cardsPerMonth}. The owner quota still applies.`,
    ),
};

/** Body of `PATCH /sites/{id}`: the budget's fields, at least one. */
export const siteBudgetBodySchema = z
  .object(budgetFields)
  .strict()
  .refine((b) => b.cardsPerHour !== undefined || b.cardsPerMonth !== undefined, {
    message: 'at least one of cardsPerHour and cardsPerMonth',
    path: ['cardsPerHour'],
  });

/** Body of `POST /sites` (src/domain/sites/sites.ts). */
export const siteBodySchema = z
  .object({
    origin: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#]+\/?$/, {
        message: 'an http or https origin such as https://blog.example.com',
      })
      // And a host the WHATWG URL parser takes, without credentials: the regex lets through hosts
      // it refuses, such as control characters.
      .refine(
        (v) => {
          try {
            const url = new URL(v);
            return !url.username && !url.password && url.pathname === '/';
          } catch {
            return false;
          }
        },
        { message: 'an http or https origin such as https://blog.example.com' },
      )
      .describe('The site: scheme, host and port, such as https://blog.example.com (no path).'),
    preset: recordIdSchema('pre').describe("The preset that gives every page's card its design."),
    name: textSchema(100)
      .optional()
      .describe("What the fallback card says, 1 to 100 characters; default the origin's host."),
    keepQuery: z
      .boolean()
      .optional()
      .describe(
        'Whether a page URL keeps its query string; default false (dropped, so ?utm_… variants are one page).',
      ),
    description: z
      .boolean()
      .optional()
      .describe("Whether a page's og:description becomes the subtitle; default false."),
    ...budgetFields,
  })
  .strict();

/** A site as the API shows it. */
export const siteSchema = z.object({
  id: z.string(),
  origin: z.string(),
  name: z.string(),
  preset: z.string(),
  keepQuery: z.boolean(),
  description: z.boolean(),
  budget: z
    .object({
      cardsPerHour: z.number().int(),
      cardsPerMonth: z.number().int(),
      thisHour: z.number().int().describe('New cards made in this clock hour (UTC).'),
      thisMonth: z.number().int().describe('New cards made in this calendar month (UTC).'),
    })
    .describe('New cards the link may make, and what it made (docs/sites.md).'),
  verified: z.boolean(),
  verifiedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  verification: z
    .object({
      token: z.string().describe('tcv_ and 32 base62 characters.'),
      meta: z.string().describe('The tag to put in the <head> of the home page.'),
      fileUrl: z.string().describe('Or: the file to serve, whose whole content is the token.'),
    })
    .describe('How to prove the origin is yours: either one, then POST /sites/{id}/verify.'),
  link: z.string().describe('The site link without its page: add the page URL, percent-encoded, after url=.'),
  snippet: z.string().describe('The tag for every page: replace PAGE_URL with the page URL in the theme.'),
});

/** A page of a site as the dashboard and `GET /sites/{id}/pages` show it. */
export const sitePageSchema = z.object({
  url: z.string(),
  title: z.string().nullable(),
  subtitle: z.string().nullable(),
  problem: z
    .string()
    .nullable()
    .describe('Why the last check gave the fallback card; null when it went well.'),
  checkedAt: isoTimestamp,
});

/** `GET /sites/{id}/fetches`: which crawler has which card, per page (crawls.ts). */
export const pageFetchesSchema = z.object({
  url: z.string(),
  title: z.string().nullable(),
  currentVersion: z
    .number()
    .int()
    .nullable()
    .describe("The version of the page's current card (1 for its first); null while it has none."),
  platforms: z.array(
    z.object({
      platform: z
        .string()
        .describe(
          'x, facebook, linkedin, slack, discord, imessage, whatsapp, telegram, mastodon or bluesky.',
        ),
      name: z.string(),
      version: z.number().int().describe('The version of the card it fetched last.'),
      fetchedAt: isoTimestamp,
      current: z.boolean().describe("Whether it has the page's current card."),
    }),
  ),
});
