/** The {@link TitlecardBackend} of the domain in this process, for a caller authenticated per call. */
import type { Principal } from '../domain/accounts/accounts.js';
import type { Services } from '../domain/services.js';
import { requireScope } from '../domain/workspaces/roles.js';
import type { TitlecardBackend } from './port.js';

/** The domain, for a caller authenticated by `principal()` (called on every tool call). */
export function localBackend(services: Services, principal: () => Promise<Principal>): TitlecardBackend {
  return {
    async generate(bytes, options) {
      const generated = await services.generation.generate(await principal(), async () => ({
        image: bytes.read ? await bytes.read() : undefined,
        imageField: bytes.field,
        options,
      }));
      return {
        image: generated.image,
        thumbnail: generated.thumbnail.body,
        // A retry answered from its record has no report: nothing to warn of then.
        warnings: generated.report?.warnings ?? [],
      };
    },
    async preview(bytes, options) {
      const preview = await services.previews.preview(await principal(), async () => ({
        image: bytes.read ? await bytes.read() : undefined,
        imageField: bytes.field,
        options,
      }));
      return preview.body;
    },
    async listImages(query) {
      return services.images.list(await principal(), query);
    },
    async usage() {
      const caller = await principal();
      requireScope(caller, 'usage:read');
      return services.quota.usage(caller.workspace);
    },
    async validateToken() {
      return services.quota.validation(await principal());
    },
    async cardView(id) {
      return services.previews.view(await principal(), id);
    },
    async deleteImage(id) {
      await services.images.delete(await principal(), id);
    },
    async checkLayout(options) {
      return services.previews.checkLayout(await principal(), options);
    },
    async checkLinkPreview(url) {
      return services.linkPreviews.check(await principal(), { url });
    },
    async linkPreviewMockup(id, platform) {
      return services.linkPreviews.mockup(await principal(), id, platform);
    },
    async listPresets() {
      return services.presets.list(await principal());
    },
    async listTemplates() {
      return services.templates.list(await principal());
    },
    async getTemplate(id) {
      return services.templates.get(await principal(), id);
    },
    async createTemplate(document) {
      return services.templates.create(await principal(), document);
    },
    async replaceTemplate(id, document) {
      return services.templates.replace(await principal(), id, document);
    },
    async createRenderUrl(body) {
      return services.renderUrls.createUrl(await principal(), body);
    },
    async startBatch(body) {
      return services.batches.create(await principal(), body);
    },
    async getBatch(id) {
      return services.batches.get(await principal(), id);
    },
  };
}
