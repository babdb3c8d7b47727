/**
 * Render links in the dashboard: presets, uploads (backgrounds, logos, fonts), signing
 * keys and a link builder. Every action is one use case of the domain, as in the REST API.
 *
 *   /links/presets      list, create; /links/presets/:id edit, delete
 *   /links/uploads      backgrounds and logos, fonts: upload, delete; /links/uploads/:id/file shows one
 *   /links/keys         signing keys (the secret shown once), revoke; the link builder
 */
import express, { type Response } from 'express';
import { decodeFields } from '../../http/form.js';
import { receiveForm } from '../../http/multipart.js';
import { FONT_MAX_BYTES } from '../../domain/assets/assets.js';
import { LIMITS, FONT_NAMES, LOGO, LOGO_CORNERS } from '../../domain/design.js';
import type { Services } from '../../domain/services.js';
import { formText, noticeFrom, orRefusal } from '../forms.js';
import { day, page } from '../render.js';
import { sessionPrincipal } from '../session.js';
import { quotaUsedUp } from './sites.js';

const NOTICES: Record<string, string> = {
  'preset-saved': 'The preset is saved. Links made with it render the new design on their next fetch.',
  'preset-deleted': 'The preset is deleted: its links answer 404 from now on.',
  uploaded: 'Uploaded.',
  'upload-deleted': 'The upload is deleted.',
  'key-revoked': 'The signing key is revoked: its links answer 403 from now on.',
};
const noticeOf = (done: unknown) => noticeFrom(NOTICES, done);

/** The generate options the preset form has, decoded as the REST form's are (src/http/form.ts). */
const OPTION_FIELDS = [
  'template',
  'aspect',
  'colorMode',
  'colorHex',
  'fileFormat',
  'focus',
  'fontSize',
  'font',
  'gradient',
  'textShadow',
] as const;

/** A preset's JSON body from the dashboard's form (empty fields are left out, so defaults apply). */
function presetBodyOf(form: unknown): Record<string, unknown> {
  const text = (name: string) => formText(form, name).trim();
  const options = decodeFields(Object.fromEntries(OPTION_FIELDS.map((name) => [name, text(name)])));
  // The font menu lists uploaded fonts by id.
  if (typeof options.font === 'string' && options.font.startsWith('fnt_'))
    options.font = { custom: options.font };
  return {
    name: text('name'),
    ...options,
    background: text('background') || null,
    logo: text('logo')
      ? {
          asset: text('logo'),
          corner: text('logoCorner') || 'top-right',
          size: Number(text('logoSize') || '0.15'),
        }
      : null,
  };
}

/** The form's values of a preset (for editing). */
function valuesOf(preset: {
  name: string;
  options: Record<string, unknown>;
  background: string | null;
  logo: { asset: string; corner: string; size: number } | null;
}) {
  const o = preset.options;
  const font = o.font as string | { custom?: string; system?: string } | undefined;
  return {
    name: preset.name,
    template: o.template ?? '',
    aspect: o.aspect ?? '',
    colorMode: o.colorMode ?? '',
    colorHex: o.colorHex ?? '',
    fileFormat: o.fileFormat ?? '',
    fontSize: o.fontSize ?? '',
    font: typeof font === 'object' ? (font.custom ?? font.system ?? '') : (font ?? ''),
    gradient: o.gradient === false ? 'false' : 'true',
    textShadow: o.textShadow === false ? 'false' : 'true',
    background: preset.background ?? '',
    logo: preset.logo?.asset ?? '',
    logoCorner: preset.logo?.corner ?? 'top-right',
    logoSize: String(preset.logo?.size ?? 0.15),
  };
}

export function linksRoutes(services: Services, publicUrl: string): express.Router {
  const { presets, assets, renderUrls } = services;
  const router = express.Router();

  /** What the preset form offers: the uploads and fonts to choose from. */
  const choices = async (res: Response) => ({
    images: await assets.list(sessionPrincipal(res), ['background', 'logo']),
    customFonts: await assets.list(sessionPrincipal(res), ['font']),
    systemFonts: FONT_NAMES,
    logoCorners: LOGO_CORNERS,
    logo: LOGO,
  });

  const presetsPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'presets',
      {
        title: 'Presets',
        section: 'links',
        tab: 'presets',
        presets: await presets.list(sessionPrincipal(res)),
        ...(await choices(res)),
        values: {
          gradient: 'true',
          textShadow: 'true',
          logoCorner: LOGO.corner,
          logoSize: String(LOGO.size),
        },
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/links', (_req, res) => {
    res.redirect(303, '/links/presets');
  });
  router.get('/links/presets', async (req, res) => {
    await presetsPage(res, { notice: noticeOf(req.query.done) });
  });
  router.post('/links/presets', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => presetsPage(res, { error, values: req.body as Record<string, unknown> }, status),
      async () => {
        await presets.create(sessionPrincipal(res), presetBodyOf(req.body));
        res.redirect(303, '/links/presets?done=preset-saved');
      },
    );
  });
  const editPage = async (res: Response, id: string, extra: Record<string, unknown> = {}, status = 200) => {
    const preset = await presets.get(sessionPrincipal(res), id);
    page(
      res,
      'preset-edit',
      {
        title: `Edit ${preset.name}`,
        section: 'links',
        tab: 'presets',
        preset,
        values: valuesOf(preset),
        ...(await choices(res)),
        ...extra,
      },
      status,
    );
  };
  router.get('/links/presets/:id', async (req, res) => {
    await editPage(res, req.params.id);
  });
  router.post('/links/presets/:id', async (req, res) => {
    await orRefusal(
      res,
      (error, status) =>
        editPage(res, req.params.id, { error, values: req.body as Record<string, unknown> }, status),
      async () => {
        await presets.replace(sessionPrincipal(res), req.params.id, presetBodyOf(req.body));
        res.redirect(303, '/links/presets?done=preset-saved');
      },
    );
  });
  router.post('/links/presets/:id/delete', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => presetsPage(res, { error }, status),
      async () => {
        await presets.delete(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/links/presets?done=preset-deleted');
      },
    );
  });

  const uploadsPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'uploads',
      {
        title: 'Uploads',
        section: 'links',
        tab: 'uploads',
        images: await assets.list(sessionPrincipal(res), ['background', 'logo']),
        fonts: await assets.list(sessionPrincipal(res), ['font']),
        imageLimitMb: LIMITS.imageBytes / 1024 / 1024,
        fontLimitMb: FONT_MAX_BYTES / 1024 / 1024,
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/links/uploads', async (req, res) => {
    await uploadsPage(res, { notice: noticeOf(req.query.done) });
  });
  for (const [path, field, limit] of [
    ['/links/uploads', 'image', LIMITS.imageBytes],
    ['/links/fonts', 'font', FONT_MAX_BYTES],
  ] as const) {
    router.post(path, async (req, res) => {
      await orRefusal(
        res,
        (error, status) => uploadsPage(res, { error }, status),
        async () => {
          const form = await receiveForm(req, field, limit);
          try {
            const file = form.image && { path: form.image.path };
            // Empty fields are left out (a name left blank means the file's name).
            const fields = decodeFields(form.fields);
            if (field === 'image')
              await assets.uploadImage(sessionPrincipal(res), file, fields, form.fileName);
            else await assets.uploadFont(sessionPrincipal(res), file, fields, form.fileName);
          } finally {
            await form.cleanup();
          }
          res.redirect(303, '/links/uploads?done=uploaded');
        },
      );
    });
  }
  router.get('/links/uploads/:id/file', async (req, res) => {
    const { asset, bytes } = await assets.imageOf(sessionPrincipal(res).workspace.id, req.params.id, 'asset');
    res
      .set({ 'Cache-Control': 'private, max-age=3600', 'Content-Type': `image/${asset.format}` })
      .send(bytes);
  });
  router.post('/links/uploads/:id/delete', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => uploadsPage(res, { error }, status),
      async () => {
        await assets.delete(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/links/uploads?done=upload-deleted');
      },
    );
  });

  const keysPage = async (res: Response, extra: Record<string, unknown> = {}, status = 200) => {
    page(
      res,
      'keys',
      {
        title: 'Signing keys and links',
        section: 'links',
        tab: 'keys',
        keys: await renderUrls.listKeys(sessionPrincipal(res)),
        quotaUsedUp: await quotaUsedUp(services, res),
        presets: await presets.list(sessionPrincipal(res)),
        publicUrl,
        values: {},
        day,
        ...extra,
      },
      status,
    );
  };
  router.get('/links/keys', async (req, res) => {
    await keysPage(res, { notice: noticeOf(req.query.done) });
  });
  router.post('/links/keys', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => keysPage(res, { error }, status),
      async () => {
        const created = await renderUrls.createKey(sessionPrincipal(res), {
          name: formText(req.body, 'name'),
        });
        // The secret is shown on this answer only (no redirect: it never sits in a URL or history).
        res.set('Cache-Control', 'no-store');
        await keysPage(res, { created }, 201);
      },
    );
  });
  router.post('/links/keys/:id/revoke', async (req, res) => {
    await orRefusal(
      res,
      (error, status) => keysPage(res, { error }, status),
      async () => {
        await renderUrls.revokeKey(sessionPrincipal(res), req.params.id);
        res.redirect(303, '/links/keys?done=key-revoked');
      },
    );
  });
  router.post('/links/build', async (req, res) => {
    const values = req.body as Record<string, string>;
    await orRefusal(
      res,
      (error, status) => keysPage(res, { error, values }, status),
      async () => {
        const text = (name: string) => formText(req.body, name).trim() || undefined;
        const { url } = await renderUrls.createUrl(sessionPrincipal(res), {
          preset: text('preset'),
          title: text('title'),
          subtitle: text('subtitle'),
          format: text('format'),
          ...(text('expiresIn') ? { expiresIn: Number(text('expiresIn')) } : {}),
        });
        await keysPage(res, {
          values,
          link: { url, meta: `<meta property="og:image" content="${url.replaceAll('&', '&amp;')}">` },
        });
      },
    );
  });
  return router;
}
