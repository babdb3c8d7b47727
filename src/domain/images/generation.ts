/**
 * Generating images, in the order of images.ts's header: charge (quota.withCharge: refunded when
 * anything after it fails) → admission (or a worker, GENERATE_ON_WORKERS: handoff.ts) → read the
 * request → validate → render → write the files → write the record last. Files already written are
 * deleted when a later step fails.
 */
import type { Principal } from '../accounts/accounts.js';
import type { Quota } from '../accounts/quota.js';
import { newBlobStem, newId } from '../kernel/ids.js';
import type { BlobStore, Clock, GenerationQueue, RecordStore } from '../kernel/ports.js';
import type { ImageRecord } from '../kernel/records.js';
import type { Renderer } from '../render/index.js';
import type { Admission } from './admission.js';
import { blobKeysOf } from './files.js';
import { createHandoff } from './handoff.js';
import type {
  Generated,
  GenerateRequestReader,
  Images,
  ImagesDeps,
  ImageSource,
  ImageView,
} from './images.js';
import type { RequestResolver } from './request.js';

/**
 * One generation after its charge: read → validate → render → files → record, under `id`. Throws
 * the domain's errors (a bad option or image: ValidationError); leaves no file when it fails.
 */
export type GenerateOne = (
  principal: Principal,
  read: GenerateRequestReader,
  id: string,
  source?: ImageSource,
) => Promise<Generated>;

export function createGeneration({
  store,
  blobs,
  renderer,
  quota,
  clock,
  admission,
  resolver,
  viewOf,
  onCreated,
  generationQueue,
}: {
  store: RecordStore;
  blobs: BlobStore;
  renderer: Renderer;
  quota: Quota;
  clock: Clock;
  admission: Admission;
  resolver: RequestResolver;
  viewOf: (record: ImageRecord) => ImageView;
  onCreated: ImagesDeps['onCreated'];
  generationQueue: GenerationQueue | undefined;
}): Pick<Images, 'generate' | 'generateItem' | 'renderQueued'> {
  const generateOne: GenerateOne = async (principal, read, id, source) => {
    let keys: { imageKey: string; thumbnailKey: string } | undefined;
    try {
      const { image, imageField, options } = await read();
      const prepared = await resolver.prepare(principal.user.id, image, options, imageField);
      const parsed = prepared.options;
      const rendered = await renderer.render(prepared.input, parsed);
      keys = blobKeysOf(newBlobStem(), rendered.format);
      const record: ImageRecord = {
        id,
        userId: principal.user.id,
        title: parsed.title,
        subtitle: parsed.subtitle ?? null,
        width: rendered.width,
        height: rendered.height,
        format: rendered.format,
        ...keys,
        createdAt: clock.now(),
      };
      await Promise.all([
        blobs.put(record.imageKey, rendered.image, rendered.contentType),
        blobs.put(record.thumbnailKey, rendered.thumbnail, rendered.contentType),
      ]);
      await store.images.insert(record);
      await onCreated?.(record.userId, viewOf(record), source);
      return {
        image: viewOf(record),
        thumbnail: { body: rendered.thumbnail, contentType: rendered.contentType },
        report: rendered.report,
      };
    } catch (err) {
      if (keys) await Promise.allSettled([blobs.delete(keys.imageKey), blobs.delete(keys.thumbnailKey)]);
      throw err;
    }
  };

  const handoff = createHandoff({ store, blobs, generateOne, viewOf });

  return {
    // The quota before the capacity: a caller with no quota left gets the contract's 429 however
    // busy the process is; a unit charged and then refused for capacity is refunded (withCharge).
    generate: (principal, read) =>
      quota.withCharge(principal.user, () =>
        // Rendered on a worker: its capacity is the workers', so no admission here.
        generationQueue
          ? handoff.generateOnWorker(principal, read, generationQueue)
          : admission.admitted(principal.user.id, () => generateOne(principal, read, newId('img'))),
      ),

    async generateItem(user, options, { imageId, chargeKey, source }) {
      const existing = await store.images.findById(user.id, imageId);
      if (existing) return viewOf(existing);
      const generated = await quota.withCharge(
        user,
        () => generateOne({ user }, async () => ({ options }), imageId, source),
        { key: chargeKey },
      );
      return generated.image;
    },

    renderQueued: (job) => handoff.renderQueued(job),
  };
}
