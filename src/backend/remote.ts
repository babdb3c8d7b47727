/**
 * The {@link TitlecardBackend} of a remote Titlecard's REST API, through the typed client
 * `titlecard/client`: a customer of a hosted Titlecard needs only a token.
 */
import { createTitlecardClient, errorMessage, multipartBody } from '../client/index.js';
import { VIEW_QUALITY } from '../domain/images/images.js';
import { encodeForDisplay } from '../domain/render/index.js';
import { RemoteApiError, type TitlecardBackend } from './port.js';

/** The `data` of a success envelope, or a {@link RemoteApiError} with the answer's message. */
function dataOf<T>(answer: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (answer.data === undefined)
    throw new RemoteApiError(answer.response.status, errorMessage(answer.response.status, answer.error));
  return answer.data.data;
}

/** A remote Titlecard's REST API (`apiUrl` is its `{base_url}`, e.g. https://host/api). */
export function remoteBackend(apiUrl: string, token: string): TitlecardBackend {
  const api = createTitlecardClient({ baseUrl: apiUrl, token });
  return {
    async generate(bytes, options) {
      const answer = await api.POST('/generate', {
        body: { ...options, ...(bytes.read ? { image: new Blob([await bytes.read()]) } : {}) } as never,
        bodySerializer: multipartBody,
      });
      const image = dataOf(answer);
      // The render report's warnings, each whole (the Titlecard-Warning header joins them with spaces).
      const reportHeader = answer.response.headers.get('titlecard-render-report');
      const report = reportHeader ? (JSON.parse(reportHeader) as { warnings?: string[] }) : undefined;
      const warning = answer.response.headers.get('titlecard-warning');
      // The thumbnail is a public file: no token needed.
      const res = await fetch(image.thumbnailUrl);
      return {
        image,
        thumbnail: res.ok ? Buffer.from(await res.arrayBuffer()) : undefined,
        warnings: report?.warnings ?? (warning ? [warning] : []),
      };
    },
    async preview() {
      throw new RemoteApiError(
        501,
        "Live previews are not offered through a remote Titlecard's REST API; generate_image works as ever",
      );
    },
    async listImages(query) {
      return dataOf(await api.GET('/images', { params: { query } }));
    },
    usage: async () => dataOf(await api.GET('/usage')),
    validateToken: async () => dataOf(await api.GET('/tokens/validate')),
    async cardView(id) {
      const image = dataOf(await api.GET('/images/{id}', { params: { path: { id } } }));
      // Files are public: no token needed.
      const res = await fetch(image.url);
      if (!res.ok) throw new RemoteApiError(res.status, `The file of image ${id} answered ${res.status}`);
      return encodeForDisplay(Buffer.from(await res.arrayBuffer()), { quality: VIEW_QUALITY, mozjpeg: true });
    },
    async deleteImage(id) {
      const answer = await api.DELETE('/images/{id}', { params: { path: { id } } });
      if (!answer.response.ok)
        throw new RemoteApiError(answer.response.status, errorMessage(answer.response.status, answer.error));
    },
    checkLayout: async (options) => dataOf(await api.POST('/layout', { body: options })),
    checkLinkPreview: async (url) => dataOf(await api.POST('/previews', { body: { url } })),
    async linkPreviewMockup(id, platform) {
      const answer = await api.GET('/previews/{id}/{platform}.png', {
        params: { path: { id, platform: platform as never } },
        parseAs: 'arrayBuffer',
      });
      if (!answer.response.ok)
        throw new RemoteApiError(answer.response.status, errorMessage(answer.response.status, answer.error));
      return Buffer.from(answer.data as ArrayBuffer);
    },
    listPresets: async () => dataOf(await api.GET('/presets')).presets,
    listTemplates: async () => dataOf(await api.GET('/templates')).templates,
    getTemplate: async (id) => dataOf(await api.GET('/templates/{id}', { params: { path: { id } } })),
    createTemplate: async (document) => dataOf(await api.POST('/templates', { body: document as never })),
    replaceTemplate: async (id, document) =>
      dataOf(await api.PUT('/templates/{id}', { params: { path: { id } }, body: document as never })),
    createRenderUrl: async (body) => dataOf(await api.POST('/render-urls', { body: body as never })),
    startBatch: async (body) => dataOf(await api.POST('/batches', { body: body as never })),
    getBatch: async (id) => dataOf(await api.GET('/batches/{id}', { params: { path: { id } } })),
  };
}
