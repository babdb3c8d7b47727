/**
 * Configuration from environment variables, checked once at start-up. A bad value stops the process
 * with a message naming the variable and what was expected.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

export class ConfigError extends Error {}

/** Every variable Titlecard reads, with its default; `titlecard --help` prints this list. */
export const CONFIG_VARIABLES: [name: string, description: string][] = [
  ['PORT', 'TCP port of the HTTP server, 0 to 65535 (0: any free port). Default 3000.'],
  [
    'HOST',
    'Interface to listen on. Default 127.0.0.1; use 0.0.0.0 in a container or behind a proxy elsewhere.',
  ],
  [
    'PUBLIC_URL',
    'Base URL the public reaches this server at; image URLs are built on it. Default http://localhost:PORT.',
  ],
  [
    'DATA_DIR',
    'Directory of the SQLite database (titlecard.db) and the image files (files/). Default ./data.',
  ],
  [
    'LOG_LEVEL',
    'fatal, error, warn, info, debug, trace or silent. Default info. Logs go to stderr as JSON lines.',
  ],
  [
    'RENDER_CONCURRENCY',
    'Most images rendered at once per process; further requests wait their turn. Default: the number of CPU cores.',
  ],
  [
    'RENDER_QUEUE',
    'Most generations that may wait for a render beyond RENDER_CONCURRENCY, a bound on the memory they hold (uploads wait on disk); past that, POST /generate answers 503 with Retry-After and charges nothing. Default 64.',
  ],
  [
    'SITE_RECHECK',
    "Seconds before a site's page is fetched again for its card (a changed title then renders anew); in between, the page's card is served as is. Default 3600.",
  ],
  [
    'RENDER_MAX_WAIT',
    'Seconds a generation may expect to wait for a render (those ahead of it × the recent mean render time ÷ RENDER_CONCURRENCY); past that, POST /generate answers 503 with the expected wait as Retry-After and charges nothing. Default 30.',
  ],
  [
    'MAX_CONNECTIONS',
    'Most open connections per process; more are refused at once. Default 1024. A client has 10 s to send its headers and 120 s for a whole request.',
  ],
  [
    'METRICS_TOKEN',
    'When set, GET /metrics needs Authorization: Bearer <METRICS_TOKEN>. Unset: /metrics is open (keep it off the public network).',
  ],
  [
    'SECRETS_KEY',
    'Base64 of 32 random bytes (openssl rand -base64 32): seals the signing keys of render links at rest (AES-256-GCM). Unset: DATA_DIR/secrets.key, made on first start. Scaled out: set the same value on every process.',
  ],
  [
    'TRUST_PROXY',
    'Express trust proxy, for a reverse proxy in front: the number of proxies (1 for one nginx), or a comma-separated list of their addresses or CIDR ranges (or loopback, linklocal, uniquelocal). Then the client address of throttles and logs comes from X-Forwarded-For. Default off.',
  ],
  [
    'MCP_ALLOWED_HOSTS',
    'Comma-separated extra Host names accepted at /mcp (DNS rebinding protection). The host of PUBLIC_URL and localhost always are.',
  ],
  [
    'MCP_ALLOWED_ORIGINS',
    'Comma-separated extra browser Origins accepted at /mcp. The origin of PUBLIC_URL always is.',
  ],
  [
    'FETCH_ALLOW_ADDRESSES',
    "Comma-separated IPs or CIDR ranges that imageUrl and a site's pages may reach although private (an intranet host). Default none.",
  ],
  [
    'MONGODB_URI',
    'Selects MongoDB for records (users, tokens, images, usage) instead of SQLite, e.g. mongodb://db:27017.',
  ],
  ['MONGODB_DB', 'MongoDB database name. Default titlecard.'],
  [
    'REDIS_URL',
    'A Redis server (redis:// or rediss://) where every process counts the sign-in, password-reset, preview and OAuth limits, so that N processes give no more tries than one. Default none: each process counts in its own memory.',
  ],
  [
    'QUEUE',
    'Where batch items wait for a renderer: store (the record store; every serving process renders them) or redis (BullMQ on REDIS_URL; `titlecard worker` processes render them). Default store.',
  ],
  [
    'QUEUE_LOCK_SECONDS',
    'With QUEUE=redis: seconds a worker holds an item without renewing its lock before another worker takes it over (a killed worker). Default 30.',
  ],
  ['WORKER_CONCURRENCY', 'Items a `titlecard worker` renders at once. Default RENDER_CONCURRENCY.'],
  ['S3_BUCKET', 'Selects an S3 bucket for image files instead of DATA_DIR/files.'],
  ['S3_ENDPOINT', 'S3 endpoint of an S3-compatible server, e.g. http://minio:9000. Default AWS.'],
  ['S3_REGION', 'S3 region. Default us-east-1.'],
  ['S3_FORCE_PATH_STYLE', 'true for path-style URLs (most S3-compatible servers). Default false.'],
  [
    'S3_PUBLIC_URL',
    'Public base URL of the bucket or a CDN in front of it; image URLs become S3_PUBLIC_URL/<key>. Unset: Titlecard serves the files at PUBLIC_URL/files/<key>.',
  ],
  [
    'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY',
    'S3 credentials (or any other source of the AWS SDK credential chain).',
  ],
  [
    'SIGNUP',
    'open: anyone can make an account in the dashboard; closed: only `titlecard users create` can. Default open.',
  ],
  [
    'SMTP_URL',
    'SMTP server for verification and password-reset emails, e.g. smtps://user:pass@smtp.example.com:465. Unset: the emails are written to the log.',
  ],
  ['MAIL_FROM', 'Sender of those emails. Default "Titlecard <no-reply@HOST of PUBLIC_URL>".'],
  ['TITLECARD_TOKEN', 'titlecard mcp and titlecard templates only: the API token they act with.'],
  [
    'TITLECARD_API_URL',
    'titlecard mcp and titlecard templates only: a remote Titlecard {base_url} (https://host/api); unset, the local store under DATA_DIR is used.',
  ],
];

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

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .transform((u) => u?.replace(/\/+$/, '')),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  RENDER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(64),
  RENDER_MAX_WAIT: z.coerce.number().min(0).max(3600).default(30),
  SITE_RECHECK: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 24 * 3600)
    .default(3600),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
  SECRETS_KEY: z
    .string()
    .refine(
      (v) => Buffer.from(v, 'base64').length === 32,
      'expected base64 of 32 bytes (openssl rand -base64 32)',
    )
    .optional(),
  TRUST_PROXY: z
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
  MCP_ALLOWED_HOSTS: list,
  MCP_ALLOWED_ORIGINS: list,
  FETCH_ALLOW_ADDRESSES: list,
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'expected a mongodb:// or mongodb+srv:// URI')
    .optional(),
  MONGODB_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/)
    .default('titlecard'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL')
    .optional(),
  QUEUE: z.enum(['store', 'redis']).default('store'),
  QUEUE_LOCK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  GENERATE_ON_WORKERS: z.enum(['true', 'false']).default('false'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SIGNUP: z.enum(['open', 'closed']).default('open'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).optional(),
});

export interface Config {
  port: number;
  host: string;
  /** Without trailing slash; undefined means http://localhost:<the port actually bound>. */
  publicUrl: string | undefined;
  /** Absolute path. */
  dataDir: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** Most renders at once; undefined means the number of cores. */
  renderConcurrency: number | undefined;
  /** Most generations that may wait for a render beyond `renderConcurrency`. */
  renderQueue: number;
  /** Longest expected wait for a render a generation is admitted to, seconds. */
  renderMaxWait: number;
  /** Seconds before a site's page is fetched again (src/domain/sites/sites.ts). */
  siteRecheck: number;
  /** Most open connections per process. */
  maxConnections: number;
  /** Set: `GET /metrics` needs it as a bearer token. */
  metricsToken: string | undefined;
  /**
   * Express's `trust proxy`: false (default: the socket's address is the client's), a number of
   * proxy hops, or the proxies' addresses and CIDR ranges (docs/security.md).
   */
  trustProxy: false | number | string[];
  /** SECRETS_KEY, 32 bytes; undefined: DATA_DIR/secrets.key (src/runtime.ts). */
  secretsKey: Buffer | undefined;
  mcpAllowedHosts: string[];
  mcpAllowedOrigins: string[];
  /** QUEUE: where batch items wait (src/queue.ts for redis). */
  queue: 'store' | 'redis';
  /** QUEUE_LOCK_SECONDS. */
  queueLockSeconds: number;
  /** GENERATE_ON_WORKERS. */
  generateOnWorkers: boolean;
  /** WORKER_CONCURRENCY; undefined: the renderer's. */
  workerConcurrency: number | undefined;
  /** REDIS_URL: where the limits are counted when set (src/storage/throttle.ts). */
  redisUrl: string | undefined;
  /** Private addresses imageUrl may reach anyway (IPs or CIDR ranges). */
  fetchAllowAddresses: string[];
  /** Set: records in MongoDB. */
  mongo: { uri: string; dbName: string } | undefined;
  /** Dashboard sign-up: `open` or `closed`. */
  signUp: 'open' | 'closed';
  /** Set: emails go out through this SMTP server; unset, to the log. */
  smtpUrl: string | undefined;
  /** Sender of emails; undefined means `Titlecard <no-reply@host of the public URL>`. */
  mailFrom: string | undefined;
  /** Set: image files in S3. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        forcePathStyle: boolean;
        publicUrl: string | undefined;
      }
    | undefined;
}

/** Reads the configuration from `env`. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
  if (c.GENERATE_ON_WORKERS === 'true' && c.QUEUE !== 'redis')
    throw new ConfigError(
      'Invalid GENERATE_ON_WORKERS="true": it needs QUEUE=redis (and REDIS_URL), the queue workers read.',
    );
  if (c.QUEUE === 'redis' && !c.REDIS_URL)
    throw new ConfigError(
      'Invalid QUEUE="redis": it needs REDIS_URL, the Redis server that holds the queue.',
    );
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl: c.PUBLIC_URL,
    dataDir: path.resolve(c.DATA_DIR),
    logLevel: c.LOG_LEVEL,
    renderConcurrency: c.RENDER_CONCURRENCY,
    renderQueue: c.RENDER_QUEUE,
    renderMaxWait: c.RENDER_MAX_WAIT,
    siteRecheck: c.SITE_RECHECK,
    maxConnections: c.MAX_CONNECTIONS,
    metricsToken: c.METRICS_TOKEN,
    trustProxy: c.TRUST_PROXY,
    secretsKey: c.SECRETS_KEY ? Buffer.from(c.SECRETS_KEY, 'base64') : undefined,
    mcpAllowedHosts: c.MCP_ALLOWED_HOSTS,
    mcpAllowedOrigins: c.MCP_ALLOWED_ORIGINS,
    fetchAllowAddresses: c.FETCH_ALLOW_ADDRESSES,
    mongo: c.MONGODB_URI ? { uri: c.MONGODB_URI, dbName: c.MONGODB_DB } : undefined,
    redisUrl: c.REDIS_URL,
    queue: c.QUEUE,
    queueLockSeconds: c.QUEUE_LOCK_SECONDS,
    generateOnWorkers: c.GENERATE_ON_WORKERS === 'true',
    workerConcurrency: c.WORKER_CONCURRENCY,
    signUp: c.SIGNUP,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM,
    s3: c.S3_BUCKET
      ? {
          bucket: c.S3_BUCKET,
          endpoint: c.S3_ENDPOINT,
          region: c.S3_REGION,
          forcePathStyle: c.S3_FORCE_PATH_STYLE === 'true',
          publicUrl: c.S3_PUBLIC_URL?.replace(/\/+$/, ''),
        }
      : undefined,
  };
}
