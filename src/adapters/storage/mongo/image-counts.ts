/**
 * Each account's image count on MongoDB, exact on every server that speaks the protocol.
 *
 * The count is a chain of links in `imageCounts`, one per change: link `seq` of an account has the
 * `_id` `<userId>:<seq>` and holds the count after that change. A change reads the account's last
 * link and inserts the next one; two changes built on the same link collide on the unique `_id`,
 * and the loser reads again and retries. A single document with `$inc` would be simpler, and is
 * atomic on MongoDB, but FerretDB 1.24 reads and then writes an update: 20 concurrent first inserts
 * counted 13 (test/storage/contract/records/images.ts). A unique key holds everywhere, as for the
 * quota's slots (index.ts).
 *
 * Links more than {@link KEPT_LINKS} behind the newest are deleted as the chain grows: a change
 * that read its last link so long ago that a thousand changes have landed since could otherwise
 * build on a deleted link.
 */
import type { ClientSession, Collection, Db } from 'mongodb';
import { ServiceBusyError } from '../../../domain/kernel/errors.js';
import { isDuplicateKey, type ImageDoc } from './documents.js';

/** One link of an account's count chain. */
interface CountLink {
  /** `<userId>:<seq>`: unique, so one change only builds on each link. */
  _id: string;
  userId: string;
  seq: number;
  /** The account's images after this change. */
  n: number;
  /** The image an insert counted (see {@link ImageCounts.counted}). */
  imageId?: string;
}

/** Links kept behind the newest; older ones are deleted each time `seq` reaches a multiple of it. */
export const KEPT_LINKS = 1000;

/** Tries of one change before giving up: each failure means another change of the account landed. */
export const MAX_TRIES = 100;

export interface ImageCounts {
  /** The account's images: 0 for an account with none. */
  get(userId: string, session?: ClientSession): Promise<number>;
  /**
   * Adds `by` (negative to subtract) to the account's count. In a transaction, a collision with
   * another change throws the duplicate key error for the caller to run the transaction again;
   * outside one, {@link MAX_TRIES} collisions in a row throw `ServiceBusyError` (503), as the
   * quota's slot claims do.
   */
  add(userId: string, by: number, session?: ClientSession, imageId?: string): Promise<void>;
  /** Whether an insert of image `imageId` was counted already (its record may not be written yet). */
  counted(imageId: string, session?: ClientSession): Promise<boolean>;
}

/** Opens the chains; on first open (no links at all) counts every account's images once. */
export async function mongoImageCounts(db: Db, images: Collection<ImageDoc>): Promise<ImageCounts> {
  const links: Collection<CountLink> = db.collection('imageCounts');
  await links.createIndex({ userId: 1, seq: -1 }, { name: 'image_counts_by_user' });
  await links.createIndex({ imageId: 1 }, { name: 'image_counts_by_image' });
  const last = (userId: string, session?: ClientSession) =>
    links.findOne({ userId }, { sort: { seq: -1 }, session });

  const add = async (userId: string, by: number, session?: ClientSession, imageId?: string) => {
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const before = await last(userId, session);
      const seq = before ? before.seq + 1 : 0;
      try {
        await links.insertOne(
          { _id: `${userId}:${seq}`, userId, seq, n: (before?.n ?? 0) + by, ...(imageId ? { imageId } : {}) },
          { session },
        );
      } catch (err) {
        // In a transaction the failed insert has aborted it: the caller runs it again.
        if (isDuplicateKey(err) && !session?.inTransaction()) continue;
        throw err;
      }
      if (seq > 0 && seq % KEPT_LINKS === 0)
        await links.deleteMany({ userId, seq: { $lt: seq - KEPT_LINKS } }, { session });
      return;
    }
    throw new ServiceBusyError(
      `The image count is busy (${MAX_TRIES} concurrent changes in a row): try again in a moment`,
    );
  };

  if ((await links.estimatedDocumentCount()) === 0) {
    // First open with counts: one pass over the images, each account's chain starting at its count.
    const perUser = await images
      .aggregate<{ _id: string; n: number }>([{ $group: { _id: '$userId', n: { $sum: 1 } } }])
      .toArray();
    for (const { _id: userId, n } of perUser) {
      try {
        await links.insertOne({ _id: `${userId}:0`, userId, seq: 0, n });
      } catch (err) {
        // Another process counted it first.
        if (!isDuplicateKey(err)) throw err;
      }
    }
  }
  return {
    async get(userId, session) {
      return (await last(userId, session))?.n ?? 0;
    },
    add,
    async counted(imageId, session) {
      return (await links.findOne({ imageId }, { projection: { _id: 1 }, session })) !== null;
    },
  };
}
