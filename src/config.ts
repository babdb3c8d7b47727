/**
 * Configuration from environment variables, checked once at start-up. A bad value stops the process
 * with a message naming the variable and what was expected.
 *
 * One table, {@link CONFIG_TABLE}, states each variable once: its zod schema (how its text is read,
 * and its default), the default as a person reads it, and what it does. `titlecard --help`
 * ({@link CONFIG_VARIABLES}), the parsed type ({@link Config}) and the table of
 * docs/configuration.md (`npx tsx scripts/configuration-docs.ts`; a test checks it) come from it.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

export class ConfigError extends Error {}

/** An address, a CIDR range, or one of the names Express's `trust proxy` (proxy-addr) knows. */
function isTrustedProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** One environment variable: how it is read, its default as shown to people, what it does (Markdown). */
export interface ConfigVariable {
  schema: z.ZodType;
  default: string;
  description: string;
  /** Its key in {@link Config} when not the camel case of its name (`SIGNUP` is `signUp`). */
  key?: string;
}

/**
 * Every variable Titlecard reads, in the order docs/configuration.md lists them. The last four are
 * read by others (the AWS SDK; `titlecard mcp` and `titlecard templates`), and listed for people.
 */
export const CONFIG_TABLE = {
  PORT: {
    schema: z.coerce.number().int().min(0).max(65535).default(3000),
    default: '`3000`',
    description: 'TCP port, 0 to 65535 (0 picks a free port).',
  },
  HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    default: '`127.0.0.1`',
    description:
      'Interface to listen on. Use `0.0.0.0` in a container, or to be reached from other machines.',
  },
  PUBLIC_URL: {
    schema: z
      .url({ protocol: /^https?$/ })
      .optional()
      .transform((u) => u?.replace(/\/+$/, '')),
    default: '`http://localhost:$PORT`',
    description:
      'Base URL the public reaches the server at. Image URLs are built on it: `$PUBLIC_URL/files/<name>`.',
  },
  DATA_DIR: {
    schema: z
      .string()
      .min(1)
      .default('./data')
      .transform((dir) => path.resolve(dir)),
    default: '`./data`',
    description:
      'Holds the SQLite database (`titlecard.db`, WAL mode), the files (`files/`: images, uploads, rendered links) and `secrets.key`.',
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    default: '`info`',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  },
  RENDER_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(64).optional(),
    default: 'number of cores',
    description:
      'Most images rendered at once per process; further requests wait their turn. Each render holds about 30 MB of pixel buffers (five or six canvases of 5.8 MB at portrait size).',
  },
  RENDER_QUEUE: {
    schema: z.coerce.number().int().min(0).max(10_000).default(64),
    default: '`64`',
    description:
      "Most cards that may wait beyond `RENDER_CONCURRENCY` (generations, previews, new cards of render links and sites): a bound on the memory they hold while they wait (an `imageUrl`'s or an asset's bytes; uploads wait on disk). Past it, 503 with `Retry-After`, nothing charged.",
  },
  RENDER_MAX_WAIT: {
    schema: z.coerce.number().min(0).max(3600).default(30),
    default: '`30`',
    description:
      'Seconds a card may expect to wait for a render: those ahead of it × the recent mean render time ÷ `RENDER_CONCURRENCY`. Past it, `POST /generate` (and a render or site link that needs a new card) answers 503 with the expected wait as `Retry-After` and charges nothing.',
  },
  SITE_RECHECK: {
    schema: z.coerce
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3600)
      .default(3600),
    default: '`3600`',
    description:
      "Seconds before a site's page is fetched again for its card: a changed title then renders anew; in between, its card is served as is ([sites.md](sites.md)).",
  },
  FACEBOOK_APP_TOKEN: {
    schema: z
      .string()
      .regex(/^\d+\|[\w-]+$/, 'expected an app access token, APP_ID|APP_SECRET')
      .optional(),
    default: 'none',
    description:
      "A Facebook app access token (the app's id, a vertical bar, its secret): when a site page's card changes, the page is sent to Facebook's re-scrape endpoint so its preview shows the new card ([previews.md](previews.md)). Unset: Facebook refreshes on its own, every 30 days.",
  },
  FACEBOOK_GRAPH_URL: {
    schema: z.string().url().default('https://graph.facebook.com'),
    default: '`https://graph.facebook.com`',
    description: "Facebook's Graph API, where re-scrapes are sent (tests name a local stand-in).",
  },
  MAX_CONNECTIONS: {
    schema: z.coerce.number().int().min(1).max(1_000_000).default(1024),
    default: '`1024`',
    description: 'Most open connections per process; more are refused at once.',
  },
  SHUTDOWN_DELAY: {
    schema: z.coerce.number().min(0).max(20).default(5),
    default: '`5`',
    description:
      'Seconds the server keeps accepting connections after SIGTERM, `/readyz` answering 503, so that a load balancer stops sending before the port closes ([operations.md](operations.md), Shutdown). SIGINT (Ctrl-C) does not wait.',
  },
  METRICS_TOKEN: {
    schema: z.string().min(16, 'expected at least 16 characters').optional(),
    default: 'none',
    description:
      'When set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (at least 16 characters).',
  },
  SECRETS_KEY: {
    schema: z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        'expected base64 of 32 bytes (openssl rand -base64 32)',
      )
      .optional()
      .transform((v) => (v ? Buffer.from(v, 'base64') : undefined)),
    default: '`DATA_DIR/secrets.key`',
    description:
      'Base64 of 32 random bytes (`openssl rand -base64 32`): seals the signing keys of render links at rest (AES-256-GCM). Unset: a key file is made on first start. Scaled out: the same value on every process.',
  },
  TRUST_PROXY: {
    schema: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || /^(false|off|0)$/i.test(v.trim())) return false as const;
        if (/^\d+$/.test(v.trim())) return Number(v.trim());
        const entries = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = entries.find((e) => !isTrustedProxyEntry(e));
        if (bad !== undefined || entries.length === 0) {
          ctx.addIssue({
            code: 'custom',
            message: `expected a number of proxies, or addresses and CIDR ranges, but ${JSON.stringify(bad ?? v)} is neither`,
          });
          return z.NEVER;
        }
        return entries;
      }),
    default: 'off',
    description:
      'The proxies in front: their number (`1` for one nginx) or their addresses and CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`). The client address of throttles and logs then comes from `X-Forwarded-For`. See [security.md](security.md).',
  },
  MCP_ALLOWED_HOSTS: {
    schema: list,
    default: 'none',
    description: 'Comma-separated extra Host names accepted at `/mcp` (DNS rebinding protection).',
  },
  MCP_ALLOWED_ORIGINS: {
    schema: list,
    default: 'none',
    description: 'Comma-separated extra browser Origins accepted at `/mcp`.',
  },
  FETCH_ALLOW_ADDRESSES: {
    schema: list,
    default: 'none',
    description:
      "Comma-separated IPs or CIDR ranges that `imageUrl`, a site's pages, webhook deliveries and OAuth Client ID Metadata Documents may reach although private (an intranet host).",
  },
  MONGODB_URI: {
    schema: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'expected a mongodb:// or mongodb+srv:// URI')
      .optional(),
    default: 'none',
    description:
      'Selects MongoDB for records (users, tokens, images, usage) instead of SQLite, e.g. `mongodb://db:27017` ([operations.md](operations.md#scaling-out)).',
  },
  MONGODB_DB: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/)
      .default('titlecard'),
    default: '`titlecard`',
    description: 'MongoDB database name.',
  },
  REDIS_URL: {
    schema: z
      .string()
      .regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL')
      .optional(),
    default: 'none',
    description:
      'A Redis server (`redis://` or `rediss://`) where every process counts the sign-in, password-reset, preview and OAuth limits, so that N processes give no more tries than one ([operations.md](operations.md#scaling-out)). Unset: each process counts in its own memory.',
  },
  QUEUE: {
    schema: z.enum(['store', 'redis']).default('store'),
    default: '`store`',
    description:
      'Where batch items wait: `store` (the record store; every serving process renders them) or `redis` (BullMQ on `REDIS_URL`; `titlecard worker` processes render them). [operations.md](operations.md#scaling-out).',
  },
  QUEUE_LOCK_SECONDS: {
    schema: z.coerce.number().int().min(1).max(3600).default(30),
    default: '`30`',
    description:
      'With `QUEUE=redis`: seconds a worker holds an item without renewing its lock before another worker takes it over.',
  },
  GENERATE_ON_WORKERS: {
    schema: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    default: '`false`',
    description:
      'With `QUEUE=redis`, `true`: `POST /generate` and the new cards of render links and sites hand their renders to the workers (an upload travels through the blob store).',
  },
  GENERATE_WAIT_SECONDS: {
    // At most 10 minutes: well inside the hour after which the charge sweep refunds a charge
    // whose image was never made (src/domain/services.ts).
    schema: z.coerce.number().int().min(1).max(600).default(120),
    default: '`120`',
    description:
      'With `GENERATE_ON_WORKERS=true`: seconds `POST /generate` (or a link that needs a new card) waits for a worker to take its render; then the job is withdrawn and the answer is 503 `BUSY` (nothing made, nothing charged). A render a worker has taken is awaited 60 s longer.',
  },
  WORKER_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(256).optional(),
    default: '`RENDER_CONCURRENCY`',
    description: 'Items a `titlecard worker` renders at once.',
  },
  S3_BUCKET: {
    schema: z.string().min(3).max(63).optional(),
    default: 'none',
    description:
      'Selects an S3 bucket for image files instead of `DATA_DIR/files` ([operations.md](operations.md#scaling-out)).',
  },
  S3_ENDPOINT: {
    schema: z.url({ protocol: /^https?$/ }).optional(),
    default: 'AWS',
    description: 'Endpoint of an S3-compatible server, e.g. `http://minio:9000`.',
  },
  S3_REGION: {
    schema: z.string().min(1).default('us-east-1'),
    default: '`us-east-1`',
    description: 'S3 region.',
  },
  S3_FORCE_PATH_STYLE: {
    schema: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    default: '`false`',
    description: '`true` for path-style URLs (most S3-compatible servers).',
  },
  S3_PUBLIC_URL: {
    schema: z
      .url({ protocol: /^https?$/ })
      .optional()
      .transform((url) => url?.replace(/\/+$/, '')),
    default: 'none',
    description:
      'Public base URL of the bucket or of a CDN in front of it: image URLs become `S3_PUBLIC_URL/<key>`. Unset: Titlecard serves the files at `PUBLIC_URL/files/<key>`.',
  },
  SIGNUP: {
    key: 'signUp' as const,
    schema: z.enum(['open', 'closed']).default('open'),
    default: '`open`',
    description:
      '`open`: anyone can create an account in the dashboard (on the free tier). `closed`: only `titlecard users create` can.',
  },
  SMTP_URL: {
    schema: z
      .string()
      .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
      .optional(),
    default: 'none',
    description:
      'SMTP server for the verification and password-reset emails, e.g. `smtps://user:pass@smtp.example.com:465` (nodemailer). Unset: each email is written to the log (level `warn`) with its link, so a local install needs no mail server.',
  },
  MAIL_FROM: {
    schema: z.string().min(3).max(200).optional(),
    default: '`Titlecard <no-reply@…>`',
    description: 'Sender of those emails; the default uses the host of `PUBLIC_URL`.',
  },
  STRIPE_SECRET_KEY: {
    schema: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'expected a Stripe secret key, sk_live_… or sk_test_…')
      .optional(),
    default: 'none',
    description:
      'Turns billing on ([billing.md](billing.md)): people buy Pro and Agency with Stripe Checkout and manage them in its Customer Portal. Unset: no billing anywhere, tiers are set with the CLI.',
  },
  STRIPE_WEBHOOK_SECRET: {
    schema: z
      .string()
      .regex(/^whsec_\w+$/, 'expected a webhook signing secret, whsec_…')
      .optional(),
    default: 'none',
    description:
      "The signing secret of the webhook endpoint `PUBLIC_URL/api/billing/webhook` in Stripe's dashboard; needed with `STRIPE_SECRET_KEY`.",
  },
  STRIPE_API_BASE: {
    schema: z
      .url({ protocol: /^https?$/ })
      .default('https://api.stripe.com')
      .transform((url) => url.replace(/\/+$/, '')),
    default: '`https://api.stripe.com`',
    description:
      "The Stripe API's address: another one for a Stripe-compatible server (the tests run a local one).",
  },
  STRIPE_PRICE_PRO_MONTHLY: {
    schema: z
      .string()
      .regex(/^price_\w+$/, 'expected a Stripe price id, price_…')
      .optional(),
    default: 'none',
    description: 'The price of Pro, billed monthly; needed with `STRIPE_SECRET_KEY`, as are the three below.',
  },
  STRIPE_PRICE_PRO_YEARLY: {
    schema: z
      .string()
      .regex(/^price_\w+$/, 'expected a Stripe price id, price_…')
      .optional(),
    default: 'none',
    description: 'The price of Pro, billed yearly.',
  },
  STRIPE_PRICE_AGENCY_MONTHLY: {
    schema: z
      .string()
      .regex(/^price_\w+$/, 'expected a Stripe price id, price_…')
      .optional(),
    default: 'none',
    description: 'The price of Agency, billed monthly.',
  },
  STRIPE_PRICE_AGENCY_YEARLY: {
    schema: z
      .string()
      .regex(/^price_\w+$/, 'expected a Stripe price id, price_…')
      .optional(),
    default: 'none',
    description: 'The price of Agency, billed yearly.',
  },
  AWS_ACCESS_KEY_ID: {
    schema: z.string().optional(),
    default: 'none',
    description:
      "S3 credentials, with `AWS_SECRET_ACCESS_KEY` (or any other source of the AWS SDK's credential chain).",
  },
  AWS_SECRET_ACCESS_KEY: {
    schema: z.string().optional(),
    default: 'none',
    description: 'S3 credentials, with `AWS_ACCESS_KEY_ID`.',
  },
  TITLECARD_TOKEN: {
    schema: z.string().optional(),
    default: 'none',
    description: '`titlecard mcp` and `titlecard templates` only: the API token they act with.',
  },
  TITLECARD_API_URL: {
    schema: z.string().optional(),
    default: 'none',
    description:
      "`titlecard mcp` and `titlecard templates` only: a remote Titlecard's address (its `PUBLIC_URL`, with or without `/api`); unset, the local store under `DATA_DIR` is used.",
  },
} satisfies Record<string, ConfigVariable>;

const schema = z.object(
  Object.fromEntries(Object.entries(CONFIG_TABLE).map(([name, v]) => [name, v.schema])) as {
    [K in keyof typeof CONFIG_TABLE]: (typeof CONFIG_TABLE)[K]['schema'];
  },
);

/** Markdown as plain text for a terminal: links become their text, code spans lose their backticks. */
const plain = (markdown: string) => markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/`/g, '');

/** Every variable with its default and meaning, as `titlecard --help` prints them. */
export const CONFIG_VARIABLES: [name: string, description: string][] = Object.entries(CONFIG_TABLE).map(
  ([name, v]) => [name, `${plain(v.description)} Default: ${plain(v.default)}.`],
);

/** Variables the table lists for people that others read (the AWS SDK; `titlecard mcp` and `templates`). */
const READ_BY_OTHERS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'TITLECARD_TOKEN',
  'TITLECARD_API_URL',
] as const;

/** The camel case of a variable's name: `RENDER_MAX_WAIT` → `renderMaxWait`. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<Camel<Tail>>}`
  : Lowercase<S>;
type Table = typeof CONFIG_TABLE;
/** A variable's key in {@link Config}: its own `key`, else the camel case of its name. */
type KeyOf<K extends keyof Table> = Table[K] extends { key: infer N extends string } ? N : Camel<K>;
const keyOf = (name: string) =>
  (CONFIG_TABLE as Record<string, ConfigVariable>)[name]?.key ??
  name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Every variable Titlecard reads itself, by its key, as its schema outputs it. */
type Flat = {
  [K in Exclude<keyof Table, (typeof READ_BY_OTHERS)[number]> as KeyOf<K>]: z.output<Table[K]['schema']>;
};

/**
 * Reads the configuration from `env`: each variable of {@link CONFIG_TABLE} under its key (`PORT` →
 * `port`, `RENDER_MAX_WAIT` → `renderMaxWait`), as its schema reads it; `DATA_DIR` an absolute
 * path, `SECRETS_KEY` 32 bytes (undefined: DATA_DIR/secrets.key, src/runtime.ts), `PUBLIC_URL`
 * without a trailing slash (undefined: http://localhost:<the port bound>), `RENDER_CONCURRENCY`
 * undefined for the number of cores; MongoDB's and S3's settings as the groups `mongo` and `s3`
 * (undefined unless `MONGODB_URI`, `S3_BUCKET` is set), Stripe's as `billing` (undefined unless
 * `STRIPE_SECRET_KEY` is set; then the webhook secret and the four prices are needed too). Throws
 * ConfigError naming the first bad or missing variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? '');
    const hint = CONFIG_VARIABLES.find(([n]) => n === name)?.[1] ?? '';
    throw new ConfigError(
      `Invalid ${name}=${JSON.stringify(env[name])}: ${issue?.message ?? 'invalid'}. ${hint}`,
    );
  }
  const c = result.data;
  if (c.GENERATE_ON_WORKERS && c.QUEUE !== 'redis')
    throw new ConfigError(
      'Invalid GENERATE_ON_WORKERS="true": it needs QUEUE=redis (and REDIS_URL), the queue workers read.',
    );
  if (c.QUEUE === 'redis' && !c.REDIS_URL)
    throw new ConfigError(
      'Invalid QUEUE="redis": it needs REDIS_URL, the Redis server that holds the queue.',
    );
  // Each variable once, by its key ({@link keyOf}); MongoDB's and S3's settings only as a group each.
  const flat = Object.fromEntries(
    Object.entries(c)
      .filter(([name]) => !(READ_BY_OTHERS as readonly string[]).includes(name))
      .map(([name, value]) => [keyOf(name), value]),
  ) as Flat;
  const {
    mongodbUri,
    mongodbDb,
    s3Bucket,
    s3Endpoint,
    s3Region,
    s3ForcePathStyle,
    s3PublicUrl,
    stripeSecretKey,
    stripeWebhookSecret,
    stripeApiBase,
    stripePriceProMonthly,
    stripePriceProYearly,
    stripePriceAgencyMonthly,
    stripePriceAgencyYearly,
    ...rest
  } = flat;
  const prices = {
    STRIPE_PRICE_PRO_MONTHLY: stripePriceProMonthly,
    STRIPE_PRICE_PRO_YEARLY: stripePriceProYearly,
    STRIPE_PRICE_AGENCY_MONTHLY: stripePriceAgencyMonthly,
    STRIPE_PRICE_AGENCY_YEARLY: stripePriceAgencyYearly,
  };
  if (stripeSecretKey) {
    const missing = Object.entries({ STRIPE_WEBHOOK_SECRET: stripeWebhookSecret, ...prices }).find(
      ([, v]) => !v,
    );
    if (missing)
      throw new ConfigError(
        `Invalid STRIPE_SECRET_KEY: billing also needs ${missing[0]} (docs/billing.md lists what to set up in Stripe).`,
      );
  }
  return {
    // MongoDB's and S3's settings as one group each, not one by one.
    ...rest,
    /** Set: records in MongoDB. */
    mongo: mongodbUri ? { uri: mongodbUri, dbName: mongodbDb } : undefined,
    /** Set: billing by Stripe (docs/billing.md); undefined without STRIPE_SECRET_KEY. */
    billing: stripeSecretKey
      ? {
          secretKey: stripeSecretKey,
          webhookSecret: stripeWebhookSecret as string,
          apiBase: stripeApiBase,
          prices: {
            pro: { month: stripePriceProMonthly as string, year: stripePriceProYearly as string },
            agency: { month: stripePriceAgencyMonthly as string, year: stripePriceAgencyYearly as string },
          },
        }
      : undefined,
    /** Set: image files in S3. */
    s3: s3Bucket
      ? {
          bucket: s3Bucket,
          endpoint: s3Endpoint,
          region: s3Region,
          forcePathStyle: s3ForcePathStyle,
          publicUrl: s3PublicUrl,
        }
      : undefined,
  };
}

/** The configuration as the process uses it ({@link loadConfig}'s answer). */
export type Config = ReturnType<typeof loadConfig>;
