/**
 * `titlecard templates push FILE.json` and `titlecard templates pull ID`: templates kept in a site's
 * git repository and pushed by its CI (docs/templates.md). They act with an API token
 * (TITLECARD_TOKEN), on a remote Titlecard's REST API when TITLECARD_API_URL is set, else on this
 * configuration's stores, as the stdio MCP connector does.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createTitlecardClient, errorMessage } from './client/index.js';
import { ConfigError, loadConfig } from './config.js';
import { TitlecardError } from './domain/kernel/errors.js';
import type { TemplateView } from './domain/templates/templates.js';
import { createLogger } from './logger.js';
import { createRuntime } from './runtime.js';

/** What push and pull need of a Titlecard, remote or local. */
interface TemplateApi {
  list(): Promise<TemplateView[]>;
  get(id: string): Promise<TemplateView>;
  create(document: unknown): Promise<TemplateView>;
  replace(id: string, document: unknown): Promise<TemplateView>;
  close(): Promise<void>;
}

/** A refusal of the remote API, as the CLI reports it (exit code 1, its message). */
class RemoteRefusal extends TitlecardError {
  constructor(status: number, body: unknown) {
    super('VALIDATION_ERROR', errorMessage(status, body));
  }
}

async function templateApi(env: NodeJS.ProcessEnv): Promise<TemplateApi> {
  const token = env.TITLECARD_TOKEN?.trim();
  if (!token) throw new ConfigError('TITLECARD_TOKEN is required: the API token to act with');
  const apiUrl = env.TITLECARD_API_URL?.trim();
  if (apiUrl) {
    if (!/^https?:\/\//.test(apiUrl))
      throw new ConfigError(
        `Invalid TITLECARD_API_URL=${JSON.stringify(apiUrl)}: expected an http or https URL`,
      );
    const api = createTitlecardClient({ baseUrl: apiUrl, token });
    const data = <T>(answer: { data?: { data: T }; error?: unknown; response: Response }): T => {
      if (answer.data === undefined) throw new RemoteRefusal(answer.response.status, answer.error);
      return answer.data.data;
    };
    // The API's own types describe the same views (generated from the same schemas).
    return {
      list: async () => data<{ templates: TemplateView[] }>(await api.GET('/templates')).templates,
      get: async (id) => data<TemplateView>(await api.GET('/templates/{id}', { params: { path: { id } } })),
      create: async (document) =>
        data<TemplateView>(await api.POST('/templates', { body: document as never })),
      replace: async (id, document) =>
        data<TemplateView>(
          await api.PUT('/templates/{id}', { params: { path: { id } }, body: document as never }),
        ),
      close: async () => {},
    };
  }
  const config = loadConfig(env);
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  const principal = () => runtime.services.accounts.authenticate(`Bearer ${token}`);
  const { templates } = runtime.services;
  return {
    list: async () => templates.list(await principal()),
    get: async (id) => templates.get(await principal(), id),
    create: async (document) => templates.create(await principal(), document),
    replace: async (id, document) => templates.replace(await principal(), id, document),
    close: () => runtime.close(),
  };
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
  const api = await templateApi(env);
  try {
    let id = options.id;
    if (!id) {
      const name = (document as { name?: unknown } | null)?.name;
      const same = (await api.list()).filter((t) => !t.builtIn && t.name === name);
      if (same.length > 1)
        throw new ConfigError(
          `${same.length} templates are named ${JSON.stringify(name)}: say which with --id`,
        );
      id = same[0]?.id;
    }
    if (id) return { template: await api.replace(id, document), created: false };
    return { template: await api.create(document), created: true };
  } finally {
    await api.close();
  }
}

/** The document of template `id` (a built-in by name too), as JSON text; written to `out` when given. */
export async function pullTemplate(
  id: string,
  out: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const api = await templateApi(env);
  try {
    const text = `${JSON.stringify((await api.get(id)).document, null, 2)}\n`;
    if (out) await writeFile(out, text);
    return text;
  } finally {
    await api.close();
  }
}
