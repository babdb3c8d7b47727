/**
 * Templates in the dashboard (src/domain/templates, docs/templates.md):
 *
 *   /templates              the built-ins and yours; duplicate one; import a .json file
 *   /templates/:id          the editor: the document as JSON with the refusal's path and message next
 *                           to it, the variables to fill, and a live preview that uses no quota
 *                           (templates.js); save, export as .json, delete. A built-in is read-only.
 *   /templates/:id/preview  the preview of the editor's unsaved document (JSON in, JPEG out)
 */
import { readFile } from 'node:fs/promises';
import express, { type Request, type Response } from 'express';
import { TitlecardError, ValidationError } from '../../domain/kernel/errors.js';
import { TEMPLATE_LIMITS } from '../../domain/render/index.js';
import type { TemplateView } from '../../domain/templates/templates.js';
import type { Services } from '../../domain/services.js';
import { receiveForm, type ReceivedForm } from '../../http/multipart.js';
import { formText, noticeFrom, orRefusal, refusalStatus } from '../forms.js';
import { day, page, STATIC_DIR } from '../render.js';
import { sessionPrincipal } from '../session.js';
import { SAMPLES } from './dashboard.js';

const NOTICES: Record<string, string> = {
  created: 'The template is saved. Fill its variables to see it on a photo.',
  saved: 'Saved: links made with it render the new version on their next fetch.',
  deleted: 'The template is deleted.',
};

/** The document's JSON as the editor shows it. */
const pretty = (document: unknown) => JSON.stringify(document, null, 2);

/** Parses the editor's text; a refusal naming `document` when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ValidationError(
      'document',
      'format',
      `Expected the template as JSON: ${(err as Error).message}`,
    );
  }
}

export function templatesRoutes(services: Services): express.Router {
  const { templates, previews } = services;
  const router = express.Router();
  // The editor's document is larger than the other forms' fields.
  const editorBody = express.urlencoded({ extended: false, limit: `${2 * TEMPLATE_LIMITS.bytes}b` });
  const previewBody = express.json({ limit: `${2 * TEMPLATE_LIMITS.bytes}b` });

  const listPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    const all = await templates.list(sessionPrincipal(res));
    page(
      res,
      'templates',
      {
        title: 'Templates',
        section: 'templates',
        builtIns: all.filter((t) => t.builtIn),
        own: all.filter((t) => !t.builtIn),
        day,
        ...extra,
      },
      status,
    );
  };
  const editorPage = async (
    res: Response,
    template: TemplateView,
    extra: { text?: string; error?: string; field?: string; notice?: string } = {},
    status = 200,
  ) => {
    page(
      res,
      'template',
      {
        title: template.name,
        section: 'templates',
        template,
        text: extra.text ?? pretty(template.document),
        variables: Object.entries((template.document.variables ?? {}) as Record<string, { type: string }>),
        samples: SAMPLES,
        ...extra,
      },
      status,
    );
  };

  router.get('/templates', async (req, res) => {
    await listPage(res, { notice: noticeFrom(NOTICES, req.query.done) });
  });

  /** Duplicates a built-in or one of yours under a new name, and opens the copy. */
  router.post('/templates/duplicate', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => listPage(res, { error }, status),
      async () => {
        const from = await templates.get(sessionPrincipal(res), formText(req.body, 'from'));
        const copy = await templates.create(sessionPrincipal(res), {
          ...from.document,
          name: `${from.name} copy`.slice(0, TEMPLATE_LIMITS.nameLength),
        });
        res.redirect(303, `/templates/${copy.id}?done=created`);
      },
    );
  });

  /** Imports a .json file (multipart `file`) as a new template. */
  router.post('/templates/import', async (req: Request, res) => {
    let form: ReceivedForm | undefined;
    try {
      await orRefusal(
        res,
        (error, status) => listPage(res, { error }, status),
        async () => {
          form = await receiveForm(req, 'file', TEMPLATE_LIMITS.bytes);
          if (!form.image || form.image.bytes === 0)
            throw new ValidationError('file', 'required', 'Expected a template file (.json) to import');
          const document = parseJson(await readFile(form.image.path, 'utf8'));
          const created = await templates.create(sessionPrincipal(res), document);
          res.redirect(303, `/templates/${created.id}?done=created`);
        },
      );
    } finally {
      await form?.cleanup();
    }
  });

  router.get('/templates/:id', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => listPage(res, { error }, status),
      async () => {
        const template = await templates.get(sessionPrincipal(res), req.params.id);
        await editorPage(res, template, { notice: noticeFrom(NOTICES, req.query.done) });
      },
    );
  });

  router.get('/templates/:id/export', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => listPage(res, { error }, status),
      async () => {
        const template = await templates.get(sessionPrincipal(res), req.params.id);
        const file = `${template.name.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'template'}.json`;
        res
          .set('Content-Disposition', `attachment; filename="${file}"`)
          .type('application/json')
          .send(`${pretty(template.document)}\n`);
      },
    );
  });

  router.post('/templates/:id', editorBody, async (req, res) => {
    const text = formText(req.body, 'document');
    const template = await templates.get(sessionPrincipal(res), req.params.id).catch(() => undefined);
    if (!template) {
      await listPage(res, { error: `No template with id ${req.params.id} on this account` }, 404);
      return;
    }
    try {
      await templates.replace(sessionPrincipal(res), template.id, parseJson(text));
      res.redirect(303, `/templates/${template.id}?done=saved`);
    } catch (err) {
      if (!(err instanceof TitlecardError)) throw err;
      const field = err instanceof ValidationError ? err.field : undefined;
      await editorPage(res, template, { text, error: err.message, field }, refusalStatus(res, err));
    }
  });

  router.post('/templates/:id/delete', async (req, res) => {
    await orRefusal(
      res,
      async (error, status) => {
        const template = await templates.get(sessionPrincipal(res), req.params.id).catch(() => undefined);
        if (template) await editorPage(res, template, { error }, status);
        else await listPage(res, { error }, status);
      },
      async () => {
        await templates.delete(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/templates?done=deleted');
      },
    );
  });

  /**
   * The editor's live preview: `{document, title, subtitle?, fields?, sample}` as JSON; a JPEG
   * 600 px wide, or 4xx `{error, field}` naming what is wrong. Uses no quota.
   */
  router.post('/templates/:id/preview', previewBody, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const sample = SAMPLES.find((s) => s.id === body.sample) ?? SAMPLES[0];
      const preview = await previews.previewTemplate(sessionPrincipal(res), body.document, async () => ({
        image: await readFile(`${STATIC_DIR}/samples/${sample.file}`),
        options: {
          title: body.title,
          ...(typeof body.subtitle === 'string' && body.subtitle.trim() ? { subtitle: body.subtitle } : {}),
          ...(body.fields && typeof body.fields === 'object' ? { fields: body.fields } : {}),
        },
      }));
      res.set('Cache-Control', 'no-store').type(preview.contentType).send(preview.body);
    } catch (err) {
      if (!(err instanceof TitlecardError)) throw err;
      res
        .status(refusalStatus(res, err))
        .json({ error: err.message, field: err instanceof ValidationError ? err.field : undefined });
    }
  });
  return router;
}
