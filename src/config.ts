/**
 * Configuration from environment variables, checked once at start-up. A bad value stops the process
 * with a message naming the variable and what was expected.
 */
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
];

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .transform((u) => u?.replace(/\/+$/, '')),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  /** Without trailing slash; undefined means http://localhost:<the port actually bound>. */
  publicUrl: string | undefined;
  /** Absolute path. */
  dataDir: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
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
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl: c.PUBLIC_URL,
    dataDir: path.resolve(c.DATA_DIR),
    logLevel: c.LOG_LEVEL,
  };
}
