#!/usr/bin/env node
/**
 * The `titlecard` command: runs the server and manages accounts on the embedded store.
 * Output meant for people goes to stdout; with --json stdout carries exactly one JSON object.
 * Logs go to stderr.
 */
import { parseArgs } from 'node:util';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';
import { TitlecardError } from './domain/errors.js';
import { profileOf } from './domain/accounts.js';
import { createLogger } from './logger.js';
import { runStdio } from './mcp/stdio.js';
import { createRuntime, startServer } from './server.js';

const HELP = `titlecard: titled images for link previews, over REST and MCP

Usage:
  titlecard serve                                       Run the HTTP server (npm start)
  titlecard users create --email E --name N [--tier free|pro|agency] [--json]
                                                        Create an account; prints its first API token, once
  titlecard users set-tier --email E --tier free|pro|agency
  titlecard tokens create --email E --name N [--json]   Create another API token for an account
  titlecard mcp                                         MCP connector over stdio (TITLECARD_TOKEN required)
  titlecard sweep [--grace-minutes 60] [--dry-run] [--json]
                                                        Delete image files no record points to
  titlecard --help

Environment:
${CONFIG_VARIABLES.map(([n, d]) => `  ${n.padEnd(11)} ${d}`).join('\n')}
`;

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      tier: { type: 'string' },
      json: { type: 'boolean', default: false },
      'grace-minutes': { type: 'string', default: '60' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action] = positionals;
  if (values.help || !group) {
    out(HELP);
    return values.help ? 0 : 1;
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel);

  if (group === 'mcp') {
    await runStdio(config, logger);
    return -1; // runs until stdin closes
  }

  if (group === 'serve') {
    const running = await startServer(config, logger);
    const stop = () => {
      logger.info('shutting down');
      void running.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1; // keep running
  }

  const need = (name: 'email' | 'name' | 'tier'): string => {
    const v = values[name];
    if (v === undefined) throw new UsageError(`--${name} is required`);
    return v;
  };
  const services = await createRuntime(config, logger);
  try {
    if (group === 'users' && action === 'create') {
      const { user, token } = await services.accounts.createUser({
        email: need('email'),
        displayName: need('name'),
        tier: values.tier ?? 'free',
      });
      if (values.json) out(JSON.stringify({ user: profileOf(user), token: token.token }));
      else
        out(
          `Created ${user.email} (${user.id}, tier ${user.tier}).\nAPI token (shown once, keep it secret):\n\n  ${token.token}\n`,
        );
      return 0;
    }
    if (group === 'users' && action === 'set-tier') {
      const user = await services.accounts.setTier(need('email'), need('tier'));
      if (values.json) out(JSON.stringify({ user: profileOf(user) }));
      else out(`${user.email} is now on the ${user.tier} tier.`);
      return 0;
    }
    if (group === 'tokens' && action === 'create') {
      const user = await services.accounts.findUserByEmail(need('email'));
      const token = await services.accounts.createToken(user, { name: need('name') });
      if (values.json) out(JSON.stringify({ token }));
      else
        out(
          `API token "${token.name}" for ${user.email} (shown once, keep it secret):\n\n  ${token.token}\n`,
        );
      return 0;
    }
    if (group === 'sweep') {
      const grace = Number(values['grace-minutes']);
      if (!Number.isFinite(grace) || grace < 0)
        throw new UsageError('--grace-minutes must be a number of minutes, 0 or more');
      const deleted = await services.images.sweepOrphans({
        olderThan: new Date(Date.now() - grace * 60_000),
        dryRun: values['dry-run'],
      });
      if (values.json) out(JSON.stringify({ deleted, dryRun: values['dry-run'] }));
      else
        out(
          `${values['dry-run'] ? 'Would delete' : 'Deleted'} ${deleted.length} file(s) no record points to.`,
        );
      return 0;
    }
    throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  } finally {
    await services.close();
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`titlecard: ${(err as Error).message}\n\n${HELP}`);
      process.exitCode = 2;
    } else if (err instanceof ConfigError || err instanceof TitlecardError) {
      process.stderr.write(`titlecard: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`titlecard: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
