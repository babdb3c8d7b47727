/**
 * The scope each use case of each service needs (docs/workspaces.md#scopes), checked by
 * `guarded` (guard.ts) before the use case runs. Complete by type: a method added to a service
 * without its entry here does not compile.
 */
import type { Assets } from '../assets/assets.js';
import type { Batches } from '../batches/batches.js';
import type { Generation } from '../images/generation.js';
import type { Previews } from '../images/previews.js';
import type { ImageRecords } from '../images/records.js';
import type { Presets } from '../presets/presets.js';
import type { RenderUrls } from '../render-links/render-links.js';
import type { Sites } from '../sites/sites.js';
import type { LinkPreviews } from '../link-previews/link-previews.js';
import type { Templates } from '../templates/templates.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import type { ScopeTable } from './guard.js';

export const SCOPE_TABLES: {
  generation: ScopeTable<Generation>;
  previews: ScopeTable<Previews>;
  images: ScopeTable<ImageRecords>;
  assets: ScopeTable<Assets>;
  presets: ScopeTable<Presets>;
  templates: ScopeTable<Templates>;
  renderUrls: ScopeTable<RenderUrls>;
  sites: ScopeTable<Sites>;
  linkPreviews: ScopeTable<LinkPreviews>;
  batches: ScopeTable<Batches>;
  webhooks: ScopeTable<Webhooks>;
} = {
  generation: {
    generate: 'images:write',
    generateItem: 'internal',
    renderQueued: 'internal',
    sweepCharges: 'internal',
  },
  linkPreviews: {
    check: 'images:write',
    get: 'images:read',
    mockup: 'images:read',
  },
  previews: {
    preview: 'images:write',
    previewTemplate: 'images:write',
    view: 'images:read',
    checkLayout: 'images:write',
  },
  images: {
    list: 'images:read',
    get: 'images:read',
    activity: 'images:read',
    delete: 'images:write',
    deleteAllOf: 'internal',
  },
  assets: {
    uploadImage: 'templates:write',
    uploadFont: 'templates:write',
    delete: 'templates:write',
    list: 'images:read',
    imageRecordOf: 'internal',
    fontRecordOf: 'internal',
    imageOf: 'internal',
    fontOf: 'internal',
    deleteAllOf: 'internal',
  },
  presets: {
    create: 'templates:write',
    replace: 'templates:write',
    delete: 'templates:write',
    list: 'images:read',
    get: 'images:read',
    use: 'internal',
  },
  templates: {
    create: 'templates:write',
    replace: 'templates:write',
    delete: 'templates:write',
    list: 'images:read',
    get: 'images:read',
    design: 'internal',
    draft: 'internal',
    recordOf: 'internal',
  },
  renderUrls: {
    createKey: 'images:write',
    revokeKey: 'images:write',
    createUrl: 'images:write',
    listKeys: 'images:read',
    fetch: 'internal',
    card: 'internal',
    deleteAllOf: 'internal',
  },
  sites: {
    create: 'sites:write',
    setBudget: 'sites:write',
    verify: 'sites:write',
    delete: 'sites:write',
    list: 'images:read',
    get: 'images:read',
    pages: 'images:read',
    fetches: 'images:read',
    fetch: 'internal',
    deleteAllOf: 'internal',
  },
  batches: {
    create: 'images:write',
    admit: 'images:write',
    cancel: 'images:write',
    archive: 'images:read',
    list: 'images:read',
    get: 'images:read',
    viewOf: 'internal',
    deleteAllOf: 'internal',
  },
  webhooks: {
    create: 'webhooks:write',
    delete: 'webhooks:write',
    sendTest: 'webhooks:write',
    list: 'webhooks:write',
    deliveries: 'webhooks:write',
    batchSecret: 'internal',
    deleteAllOf: 'internal',
    publish: 'internal',
    start: 'internal',
    stop: 'internal',
  },
};
