/** The signed-in pages: overview, images, playground and "Connect an assistant". */
import { readFile } from 'node:fs/promises';
import express, { type Request, type Response } from 'express';
import { TitlecardError, ValidationError } from '../../domain/kernel/errors.js';
import type { GenerateRequestReader } from '../../domain/images/images.js';
import { FONT_NAMES } from '../../domain/design.js';
import type { Services } from '../../domain/services.js';
import { decodeFields } from '../../http/form.js';
import { receiveForm, type ReceivedForm } from '../../http/multipart.js';
import { orRefusal, refusalStatus } from '../forms.js';
import { day, page, STATIC_DIR } from '../render.js';
import { sessionPrincipal } from '../session.js';
import { oauthAvailable } from '../../domain/oauth/clients.js';

/** Sample backgrounds bundled with the dashboard (credits in src/web/static/samples/README.md). */
export const SAMPLES = [
  { id: 'seeding', file: 'seeding.jpg', label: 'Seedlings' },
  { id: 'friends', file: 'friends.jpg', label: 'Friends' },
  { id: 'dragonfly', file: 'dragonfly.jpg', label: 'Dragonfly' },
] as const;

const PAGE_SIZE = 24;

/** The playground's form as typed generate options, and its background: the upload, or a sample. */
function playgroundReader(req: Request, upload: { form?: ReceivedForm }): GenerateRequestReader {
  return async () => {
    const form = (upload.form = await receiveForm(req));
    const sample = SAMPLES.find((s) => s.id === form.fields.sample);
    let image: { path: string } | Buffer;
    if (form.image && form.image.bytes > 0) image = { path: form.image.path };
    else if (sample) image = await readFile(`${STATIC_DIR}/samples/${sample.file}`);
    else
      throw new ValidationError(
        'image',
        'required',
        'Expected a background: choose a photo (JPEG, PNG or WebP) or one of the samples',
      );
    return { image, options: decodeFields(form.fields) };
  };
}

/** A shell word in single quotes (POSIX: a quote inside becomes '\''). */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The curl command that makes the same image through the REST API (the options that were set). */
function curlFor(publicUrl: string, fields: Record<string, string>): string {
  const parts = ['curl -H "Authorization: Bearer $TITLECARD_TOKEN"', '-F image=@photo.jpg'];
  for (const [k, v] of Object.entries(fields))
    if (v !== '' && k !== 'sample' && !(k === 'position' && fields.template))
      parts.push(`-F ${quote(`${k}=${v}`)}`);
  parts.push(`${publicUrl}/api/generate`);
  return parts.join(' \\\n  ');
}

export function dashboardRoutes(services: Services, publicUrl: string): express.Router {
  const { images, generation, previews, quota } = services;
  const router = express.Router();

  router.get('/overview', async (_req, res) => {
    const who = sessionPrincipal(res);
    const [usage, latest, activity] = await Promise.all([
      quota.usage(who.workspace),
      images.list(who, { limit: 6 }),
      images.activity(who),
    ]);
    const width = 300;
    const height = 80;
    const slot = width / Math.max(activity.length, 1);
    const top = Math.max(1, ...activity.map((d) => d.count));
    const total = activity.reduce((n, d) => n + d.count, 0);
    const chart = {
      width,
      height,
      bars: activity.map((d, i) => {
        const h = d.count === 0 ? 1 : Math.max(3, (d.count / top) * height);
        return {
          x: (i * slot + slot * 0.15).toFixed(1),
          y: (height - h).toFixed(1),
          width: (slot * 0.7).toFixed(1),
          height: h.toFixed(1),
          label: `${day(d.date)}: ${d.count}`,
        };
      }),
      first: activity[0] ? day(activity[0].date) : '',
      last: activity.at(-1) ? day(activity.at(-1)?.date ?? '') : '',
      description: `${total} images generated this month, on ${activity.filter((d) => d.count > 0).length} of ${activity.length} days; the most in one day: ${activity.length ? Math.max(...activity.map((d) => d.count)) : 0}.`,
    };
    page(res, 'overview', {
      title: 'Overview',
      section: 'overview',
      usage,
      latest: latest.images,
      resetDay: day(usage.period.end),
      chart,
    });
  });

  const sortKeys = ['createdAt:desc', 'createdAt:asc', 'title:asc', 'title:desc'] as const;
  router.get('/images', async (req, res) => {
    const sortKey = sortKeys.find((k) => k === req.query.sort) ?? 'createdAt:desc';
    const [sort, order] = sortKey.split(':') as ['createdAt' | 'title', 'asc' | 'desc'];
    const pageNumber = Math.max(
      1,
      Number.parseInt(typeof req.query.page === 'string' ? req.query.page : '1', 10) || 1,
    );
    const list = await images.list(sessionPrincipal(res), {
      limit: PAGE_SIZE,
      offset: (pageNumber - 1) * PAGE_SIZE,
      sort,
      order,
    });
    const pages = Math.max(1, Math.ceil(list.pagination.total / PAGE_SIZE));
    const link = (n: number) => `/images?sort=${sortKey}&page=${n}`;
    page(res, 'images', {
      title: 'Images',
      section: 'images',
      page: list,
      sortKey,
      pageNumber,
      pages,
      prev: pageNumber > 1 ? link(pageNumber - 1) : undefined,
      next: list.pagination.hasMore ? link(pageNumber + 1) : undefined,
      notice: req.query.done === 'deleted' ? 'The image and its files are deleted.' : undefined,
      day,
    });
  });
  router.post('/images/:id/delete', async (req, res) => {
    await images.delete(sessionPrincipal(res), req.params.id);
    res.redirect(303, '/images?done=deleted');
  });

  const playgroundData = async (res: Response, values: Record<string, string>) => ({
    title: 'Playground',
    section: 'playground' as const,
    samples: SAMPLES,
    fonts: FONT_NAMES,
    remaining: (await quota.usage(sessionPrincipal(res).workspace)).usage.remaining,
    values: {
      sample: 'seeding',
      title: '',
      subtitle: '',
      template: 'bottom-left',
      position: 'bottom',
      aspect: 'og',
      font: 'arial',
      colorMode: 'auto',
      fileFormat: 'png',
      ...values,
    },
  });
  router.get('/playground', async (_req, res) => {
    page(res, 'playground', await playgroundData(res, {}));
  });

  router.post('/playground/preview', async (req, res) => {
    const upload: { form?: ReceivedForm } = {};
    try {
      const preview = await previews.preview(sessionPrincipal(res), playgroundReader(req, upload));
      res.set('Cache-Control', 'no-store').type(preview.contentType).send(preview.body);
    } catch (err) {
      if (!(err instanceof TitlecardError)) throw err;
      res.status(refusalStatus(res, err)).json({ error: err.message });
    } finally {
      await upload.form?.cleanup();
    }
  });

  router.post('/playground/generate', async (req, res) => {
    const upload: { form?: ReceivedForm } = {};
    // A photo of the person's own was used: no sample is shown as chosen on the page that follows.
    const fields = () => ({
      ...(upload.form?.fields ?? {}),
      ...(upload.form?.image && upload.form.image.bytes > 0 ? { sample: '' } : {}),
    });
    try {
      await orRefusal(
        res,
        async (error, status) =>
          page(res, 'playground', { ...(await playgroundData(res, fields())), error }, status),
        async () => {
          const { image, report } = await generation.generate(
            sessionPrincipal(res),
            playgroundReader(req, upload),
          );
          page(res, 'playground', {
            ...(await playgroundData(res, fields())),
            result: {
              ...image,
              // Answered from the record (a worker's, a retry's): no report, nothing to warn of.
              warnings: report?.warnings ?? [],
              meta: `<meta property="og:image" content="${image.url}">\n<meta property="og:image:width" content="${image.width}">\n<meta property="og:image:height" content="${image.height}">`,
              curl: curlFor(publicUrl, fields()),
            },
          });
        },
      );
    } finally {
      await upload.form?.cleanup();
    }
  });

  router.get('/connect', (_req, res) => {
    const mcpUrl = `${publicUrl}/mcp`;
    const json = (v: unknown) => JSON.stringify(v, null, 2);
    const configs = [
      {
        id: 'claude-desktop',
        name: 'Claude Desktop',
        where:
          'Settings → Developer → Edit Config opens claude_desktop_config.json; add this under mcpServers. It runs the titlecard command of a Titlecard checkout (npm install in /path/to/titlecard; Titlecard is not published on the npm registry), which calls this server.',
        text: json({
          mcpServers: {
            titlecard: {
              command: 'npx',
              args: ['--prefix', '/path/to/titlecard', 'titlecard', 'mcp'],
              env: { TITLECARD_TOKEN: 'tc_…', TITLECARD_API_URL: `${publicUrl}/api` },
            },
          },
        }),
      },
      {
        id: 'claude-code',
        name: 'Claude Code',
        where: 'Run this in a terminal:',
        text: `claude mcp add --transport http titlecard ${mcpUrl} \\\n  --header "Authorization: Bearer tc_…"`,
      },
      {
        id: 'cursor',
        name: 'Cursor',
        where: 'In ~/.cursor/mcp.json (or .cursor/mcp.json in a project):',
        text: json({ mcpServers: { titlecard: { url: mcpUrl, headers: { Authorization: 'Bearer tc_…' } } } }),
      },
      {
        id: 'vscode',
        name: 'VS Code',
        where: 'In .vscode/mcp.json; VS Code asks for the token once and keeps it in its secret storage:',
        text: json({
          inputs: [
            {
              type: 'promptString',
              id: 'titlecard-token',
              description: 'Titlecard API token',
              password: true,
            },
          ],
          servers: {
            titlecard: {
              type: 'http',
              url: mcpUrl,
              headers: { Authorization: 'Bearer ${input:titlecard-token}' },
            },
          },
        }),
      },
    ].map((c) => ({ ...c, rows: Math.min(16, c.text.split('\n').length + 1) }));
    page(res, 'connect', {
      title: 'Connect an assistant',
      section: 'connect',
      configs,
      mcpUrl,
      oauth: oauthAvailable(publicUrl),
    });
  });

  return router;
}
