#!/usr/bin/env node
/**
 * The `titlecard` command (commander): runs the server or the stdio MCP connector, and manages
 * accounts on the configured stores. Output meant for people goes to stdout; with --json stdout
 * carries exactly one JSON object. Logs go to stderr.
 *
 * Exit codes: 0 success; 1 a refused action or a bad configuration (the message names the field or
 * variable); 2 a usage error (unknown command or option, missing option), followed by the help.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';
import { profileOf } from './domain/accounts/accounts.js';
import { TitlecardError } from './domain/kernel/errors.js';
import { parseOrThrow } from './domain/kernel/validate.js';
import { FILE_FORMATS, TIERS, type FileFormat } from './domain/design.js';
import { signRenderUrl } from './domain/render-links/canonical.js';
import { renderUrlBodySchema } from './domain/render-links/schemas.js';
import type { Services } from './domain/services.js';
import { RemoteApiError } from './backend/port.js';
import { tuneHeapGrowing } from './heap.js';
import { createLogger } from './logger.js';
import { nodeVersionProblem, VERSION } from './version.js';

// The stores, the server, the worker and the stdio connector are imported when their command runs
// (`import()` below): `titlecard --help` and `url sign` start in a tenth of the time.

const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Runs `action` on the configured stores, then closes them. */
async function withServices(action: (services: Services) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const { createRuntime } = await import('./runtime.js');
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  try {
    await action(runtime.services);
  } finally {
    await runtime.close();
  }
}

/** `--expires`: a Unix time in seconds, still to come (past it, the link answers 403 "This link has expired"). */
const unixSeconds = (value: string): number => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected Unix seconds, such as 1798761600');
  const seconds = Number(value);
  if (seconds * 1000 <= Date.now()) throw new InvalidArgumentError('expected a time to come, not one past');
  return seconds;
};

const minutes = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of minutes, 0 or more');
  return n;
};

/**
 * A signal sent to the whole process group arrives more than once: `npm start` runs
 * npm → sh → cross-env → node, Ctrl-C and systemd (`KillMode=control-group`) signal every one of
 * them, and cross-env forwards its own copy. Signals within {@link REPEATED_SIGNAL_WINDOW_MS} of the
 * first are that same request to stop; a later one is a deliberate second Ctrl-C, which stops at once.
 */
export const REPEATED_SIGNAL_WINDOW_MS = 1000;

/** Calls `graceful` on the first SIGINT or SIGTERM, `forced` on one that comes after the window. */
function onStopSignals(handlers: {
  graceful: (signal: NodeJS.Signals) => void;
  forced: (signal: string) => void;
}): void {
  let first: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (first === undefined) {
      first = now;
      handlers.graceful(signal);
    } else if (now - first > REPEATED_SIGNAL_WINDOW_MS) handlers.forced(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Closes gracefully on the first stop signal and exits 0; a later one exits 1 at once, saying what is lost. */
function closeOnStopSignals(
  close: (signal: NodeJS.Signals) => Promise<void>,
  logger: ReturnType<typeof createLogger>,
  lost: string,
): void {
  onStopSignals({
    graceful: (signal) => {
      logger.info({ signal }, 'shutting down');
      close(signal).then(
        () => process.exit(EXIT.ok),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(EXIT.refused);
        },
      );
    },
    forced: (signal) => {
      process.stderr.write(`titlecard: ${signal} again while shutting down: stopping now; ${lost}\n`);
      process.exit(EXIT.refused);
    },
  });
}

/** How far back `titlecard sweep` looks for charges of images never made: 30 days. */
const CHARGES_LOOKED_AT_DAYS = 30;

function buildProgram(): Command {
  const program = new Command('titlecard')
    .description('Titled images for link previews, over REST and MCP.')
    .version(VERSION, '-V, --version', "print Titlecard's version")
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .addHelpText(
      'after',
      `\nEnvironment:\n${CONFIG_VARIABLES.map(([n, d]) => `  ${n}\n      ${d}`).join('\n')}\n\nExit codes: 0 success, 1 refused or bad configuration, 2 usage error.`,
    );

  program
    .command('serve')
    .description('Run the HTTP server: REST API, /files, and the MCP connector at /mcp (npm start).')
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      tuneHeapGrowing();
      const { startServer } = await import('./server.js');
      const running = await startServer(config, logger, { warmUp: true });
      // SIGTERM comes from a supervisor, maybe behind a load balancer: accept a moment longer.
      // SIGINT is a person at a terminal: stop accepting at once.
      closeOnStopSignals(
        (signal) => running.close({ delayMs: signal === 'SIGTERM' ? config.shutdownDelay * 1000 : 0 }),
        logger,
        'requests still in flight are dropped',
      );
    });

  program
    .command('worker')
    .description(
      'Render batch items from the Redis queue (QUEUE=redis, REDIS_URL); /healthz and /metrics on PORT.',
    )
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      tuneHeapGrowing();
      const { startWorker } = await import('./worker.js');
      const running = await startWorker(config, logger);
      closeOnStopSignals(() => running.close(), logger, 'items in hand are taken over by another worker');
    });

  program
    .command('mcp')
    .description(
      'The MCP connector over stdio (TITLECARD_TOKEN required; TITLECARD_API_URL for a remote server).',
    )
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      const [{ backendFromEnvironment }, { runStdio }] = await Promise.all([
        import('./cli/backend.js'),
        import('./mcp/stdio.js'),
      ]);
      const { backend, close, startBackground, localFileOf } = await backendFromEnvironment(
        config,
        logger,
        process.env,
      );
      startBackground();
      await runStdio({ backend, close, localFileOf, logger });
    });

  const users = program.command('users').description('Manage accounts: users create, users set-tier.');
  users
    .command('create')
    .description('Create an account; prints its first API token, once.')
    .requiredOption('--email <email>', 'email address, unique')
    .requiredOption('--name <name>', 'display name, 1 to 100 characters')
    .option('--tier <tier>', `subscription tier, one of ${TIERS.join(', ')}`, 'free')
    .option('--json', 'print one JSON object: {user, token}')
    .action((o: { email: string; name: string; tier: string; json?: boolean }) =>
      withServices(async ({ accounts }) => {
        const { user, workspace, token } = await accounts.createUser({
          email: o.email,
          displayName: o.name,
          tier: o.tier,
        });
        if (o.json) out(JSON.stringify({ user: profileOf(user, workspace), token: token.token }));
        else
          out(
            `Created ${user.email} (${user.id}, tier ${workspace.tier}).\nAPI token (shown once, keep it secret):\n\n  ${token.token}\n`,
          );
      }),
    );
  users
    .command('set-tier')
    .description("Change the tier of an account's personal workspace (workspaces set-tier: any workspace).")
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`)
    .option('--json', 'print one JSON object: {user}')
    .action((o: { email: string; tier: string; json?: boolean }) =>
      withServices(async ({ accounts }) => {
        const { user, workspace } = await accounts.setTier(o.email, o.tier);
        if (o.json) out(JSON.stringify({ user: profileOf(user, workspace) }));
        else out(`${user.email} is now on the ${workspace.tier} tier.`);
      }),
    );

  program
    .command('workspaces')
    .description('Manage workspaces: workspaces set-tier.')
    .command('set-tier')
    .description("Change a workspace's tier (docs/workspaces.md).")
    .requiredOption('--workspace <id>', "the workspace id (a personal workspace has its account's id)")
    .requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`)
    .option('--json', 'print one JSON object: {workspace}')
    .action((o: { workspace: string; tier: string; json?: boolean }) =>
      withServices(async ({ workspaces }) => {
        const workspace = await workspaces.setTier(o.workspace, o.tier);
        if (o.json)
          out(
            JSON.stringify({ workspace: { id: workspace.id, name: workspace.name, tier: workspace.tier } }),
          );
        else out(`${workspace.name} (${workspace.id}) is now on the ${workspace.tier} tier.`);
      }),
    );

  program
    .command('tokens')
    .description('Manage API tokens: tokens create.')
    .command('create')
    .description('Create another API token for an account; prints it, once.')
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--name <name>', 'a descriptive name, 1 to 100 characters')
    .option('--workspace <id>', "the workspace it acts in (default: the account's personal one)")
    .option('--json', 'print one JSON object: {token}')
    .action((o: { email: string; name: string; workspace?: string; json?: boolean }) =>
      withServices(async ({ accounts }) => {
        const member = await accounts.actAs(o.email, o.workspace);
        const user = member.user;
        const token = await accounts.createToken(member, { name: o.name });
        if (o.json) out(JSON.stringify({ token }));
        else
          out(
            `API token "${token.name}" for ${user.email} (shown once, keep it secret):\n\n  ${token.token}\n`,
          );
      }),
    );

  program
    .command('url')
    .description('Render links: url sign.')
    .command('sign')
    .description(
      'Print a signed render link (docs/render-links.md), computed here: no server is called. The link renders on its first fetch.',
    )
    .requiredOption('--preset <id>', 'preset id, pre_…')
    .requiredOption('--title <text>', 'the title')
    .requiredOption('--key <id>', 'signing key id, key_…')
    .addOption(
      new Option('--secret <secret>', 'the signing key secret, tcs_… (better from the environment)')
        .env('TITLECARD_SIGNING_SECRET')
        .makeOptionMandatory(),
    )
    .option('--subtitle <text>', 'the subtitle')
    .option('--image <asset-or-url>', "an asset id (ast_…) or an https URL; default the preset's background")
    .addOption(new Option('--format <format>', 'output format').choices(FILE_FORMATS).default('png'))
    .option('--expires <unix-seconds>', 'expiry, Unix seconds', unixSeconds)
    .option(
      '--field <name=value>',
      "a field of the preset's template (tpl_…), sent as f.<name>; repeat for each",
      (value: string, previous: Record<string, string> = {}) => {
        const at = value.indexOf('=');
        if (at < 1) throw new InvalidArgumentError('expected name=value');
        return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
      },
    )
    .option('--base-url <url>', 'the server, default PUBLIC_URL or http://localhost:PORT')
    .action(
      (o: {
        preset: string;
        title: string;
        key: string;
        secret: string;
        subtitle?: string;
        image?: string;
        format: string;
        expires?: number;
        field?: Record<string, string>;
        baseUrl?: string;
      }) => {
        const config = loadConfig(process.env);
        // What POST /render-urls would check, before signing: a link to a malformed preset or an
        // empty title would only fail when a crawler fetches it.
        parseOrThrow(renderUrlBodySchema, {
          preset: o.preset,
          title: o.title,
          subtitle: o.subtitle,
          image: o.image,
          fields: o.field,
          format: o.format,
          key: o.key,
        });
        out(
          signRenderUrl({
            baseUrl: o.baseUrl ?? config.publicUrl ?? `http://localhost:${config.port}`,
            preset: o.preset,
            title: o.title,
            subtitle: o.subtitle,
            image: o.image,
            format: o.format as FileFormat,
            expires: o.expires,
            fields: o.field,
            keyId: o.key,
            secret: o.secret,
          }),
        );
      },
    );

  const templates = program
    .command('templates')
    .description(
      'Templates kept in git (docs/templates.md): templates push, templates pull. TITLECARD_TOKEN required; TITLECARD_API_URL for a remote server.',
    );
  templates
    .command('push')
    .description(
      'Save the template document FILE.json: replaces --id, else the template of the same name, else creates one.',
    )
    .argument('<file>', 'a template document, JSON')
    .option('--id <id>', 'the template to replace, tpl_…')
    .option('--json', 'print one JSON object: {id, name, version, created}')
    .action(async (file: string, o: { id?: string; json?: boolean }) => {
      const { pushTemplate } = await import('./cli/templates.js');
      const { template, created } = await pushTemplate(file, o);
      if (o.json)
        out(JSON.stringify({ id: template.id, name: template.name, version: template.version, created }));
      else
        out(
          `${created ? 'Created' : 'Updated'} ${template.id} "${template.name}", version ${template.version}.`,
        );
    });
  templates
    .command('pull')
    .description('Print the document of a template (a built-in by name too), or write it to --out.')
    .argument('<id>', 'tpl_…, or bottom-left, left, right, split')
    .option('--out <file>', 'write the document here instead of printing it')
    .action(async (id: string, o: { out?: string }) => {
      const { pullTemplate } = await import('./cli/templates.js');
      const text = await pullTemplate(id, o.out);
      if (o.out) out(`Wrote ${o.out}.`);
      else process.stdout.write(text);
    });

  program
    .command('sweep')
    .description(
      'Delete image files no record points to (left by a crash between a file and its record), and refund the charges of images never made (left by a crash between a charge and its record; serving processes also do this hourly).',
    )
    .option('--grace-minutes <minutes>', 'spare files younger than this (generations in flight)', minutes, 60)
    .option('--dry-run', 'list what would be deleted, delete nothing')
    .option('--json', 'print one JSON object: {deleted, dryRun}')
    .action((o: { graceMinutes: number; dryRun?: boolean; json?: boolean }) =>
      withServices(async ({ files, generation }) => {
        const dryRun = o.dryRun ?? false;
        const olderThan = new Date(Date.now() - o.graceMinutes * 60_000);
        const deleted = await files.sweepOrphans({ olderThan, dryRun });
        const since = new Date(olderThan.getTime() - CHARGES_LOOKED_AT_DAYS * 24 * 3600_000);
        const refunded = await generation.sweepCharges({ since, olderThan, dryRun });
        if (o.json) out(JSON.stringify({ deleted, refunded, dryRun }));
        else
          out(
            `${dryRun ? 'Would delete' : 'Deleted'} ${deleted.length} file(s) no record points to; ${dryRun ? 'would refund' : 'refunded'} ${refunded.length} charge(s) of images never made.`,
          );
      }),
    );
  return program;
}

/** Parses `argv` (without node and the script) and runs the command; resolves to the exit code. */
async function main(argv: string[]): Promise<number> {
  const tooOld = nodeVersionProblem();
  if (tooOld) {
    process.stderr.write(`titlecard: ${tooOld}\n`);
    return EXIT.refused;
  }
  const program = buildProgram();
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError)
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version'
        ? EXIT.ok
        : EXIT.usage;
    if (err instanceof ConfigError || err instanceof TitlecardError || err instanceof RemoteApiError) {
      process.stderr.write(`titlecard: ${err.message}\n`);
      return EXIT.refused;
    }
    process.stderr.write(`titlecard: ${(err as Error).stack ?? String(err)}\n`);
    return EXIT.refused;
  }
}

// A reader that stops early (`titlecard --help | head`) is not an error: stop writing, quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(EXIT.ok);
});

// `serve` and `mcp` keep running after their action resolves (a server, an open stdin): only the
// exit code is set here, never process.exit.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`titlecard: ${String(err)}\n`);
    process.exitCode = EXIT.refused;
  },
);
