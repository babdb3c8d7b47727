/**
 * `titlecard templates push FILE.json` and `titlecard templates pull ID`: templates kept in a site's
 * git repository and pushed by its CI (docs/templates.md). They act with an API token
 * (TITLECARD_TOKEN), on a remote Titlecard's REST API when TITLECARD_API_URL is set, else on this
 * configuration's stores, as the stdio MCP connector does.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../config.js';
import type { TemplateView } from '../domain/templates/templates.js';
import { createLogger } from '../logger.js';
import { backendFromEnvironment } from './backend.js';

/** The backend of this environment (cli/backend.ts), as `titlecard mcp` chooses it. */
function templateApi(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env);
  return backendFromEnvironment(config, createLogger(config.logLevel), env);
}

/**
 * Pushes the template document in `file`: replaces the template `id` when given, else the one
 * template of the account with the document's `name` (so a CI run updates what the last created),
 * else creates one. Answers the template as saved. Throws ConfigError for a file that is no JSON,
 * and the API's refusal (the field named) for an invalid document.
 */
export async function pushTemplate(
  file: string,
  options: { id?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ template: TemplateView; created: boolean }> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (err) {
    throw new ConfigError(`Could not read ${file} as JSON: ${(err as Error).message}`);
  }
  const { backend, close } = await templateApi(env);
  try {
    let id = options.id;
    if (!id) {
      const name = (document as { name?: unknown } | null)?.name;
      const same = (await backend.listTemplates()).filter((t) => !t.builtIn && t.name === name);
      if (same.length > 1)
        throw new ConfigError(
          `${same.length} templates are named ${JSON.stringify(name)}: say which with --id`,
        );
      id = same[0]?.id;
    }
    if (id) return { template: await backend.replaceTemplate(id, document), created: false };
    return { template: await backend.createTemplate(document), created: true };
  } finally {
    await close();
  }
}

/** The document of template `id` (a built-in by name too), as JSON text; written to `out` when given. */
export async function pullTemplate(
  id: string,
  out: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { backend, close } = await templateApi(env);
  try {
    const text = `${JSON.stringify((await backend.getTemplate(id)).document, null, 2)}\n`;
    if (out) await writeFile(out, text);
    return text;
  } finally {
    await close();
  }
}
