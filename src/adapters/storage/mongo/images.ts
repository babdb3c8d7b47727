/**
 * Image records: a page of an account's images in any of the four orders (title by the domain's
 * titleSortKey, kept beside the title, compared by code point as on SQLite), and the total.
 *
 * The total is the account's count, changed with every insert and delete (image-counts.ts), so
 * that a page does not count the account's images. On a server that has transactions (a replica
 * set or a sharded cluster) the image and its count are written in one transaction; on a
 * standalone server or FerretDB, which have none, the count is written right after the image, and
 * a process that dies between the two leaves the count off by one (docs/operations.md).
 */
import type { ClientSession, Collection, Db, Sort, SortDirection } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { titleSortKey } from '../../../domain/kernel/records.js';
import { isDuplicateKey, toImage, type ImageDoc } from './documents.js';
import { MAX_TRIES, mongoImageCounts } from './image-counts.js';

/** Whether the server runs multi-document transactions: a replica set member or a mongos. */
async function hasTransactions(db: Db): Promise<boolean> {
  const hello = await db.admin().command({ hello: 1 });
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

/**
 * Gives every image written before titleKey (with the old `titleLower`) its key, 500 at a time, and
 * drops the old index: a store opened by this version sorts every title by the domain's key. Safe
 * to run from several processes at once (each write sets the same value).
 */
async function backfillTitleKeys(images: Collection<ImageDoc>): Promise<void> {
  for (;;) {
    const docs = await images
      .find({ titleKey: { $exists: false } }, { projection: { _id: 1, title: 1 } })
      .limit(500)
      .toArray();
    if (docs.length === 0) break;
    await images.bulkWrite(
      docs.map((d) => ({
        updateOne: {
          filter: { _id: d._id },
          update: { $set: { titleKey: titleSortKey(d.title) }, $unset: { titleLower: '' } },
        },
      })),
    );
  }
  await images.dropIndex('images_by_user_title').catch(() => undefined);
}

/** The `images` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoImages(db: Db): Promise<RecordStore['images']> {
  const images: Collection<ImageDoc> = db.collection('images');
  const [transactions] = await Promise.all([
    hasTransactions(db),
    images.createIndex({ userId: 1, createdAt: -1, _id: -1 }, { name: 'images_by_user_created' }),
    images.createIndex({ userId: 1, titleKey: 1, _id: 1 }, { name: 'images_by_user_title_key' }),
  ]);
  await backfillTitleKeys(images);
  const counts = await mongoImageCounts(db, images);
  /**
   * Runs `write` in a transaction where the server has them (again when its count collided with
   * another change, image-counts.ts), else as it is.
   */
  const atomically = async (write: (session?: ClientSession) => Promise<void>) => {
    if (!transactions) return write();
    const session = db.client.startSession();
    try {
      for (let tries = 1; ; tries++) {
        try {
          return await session.withTransaction(() => write(session));
        } catch (err) {
          if (!isDuplicateKey(err) || tries >= MAX_TRIES) throw err;
        }
      }
    } finally {
      await session.endSession();
    }
  };

  return {
    async insert(image) {
      const { id, ...rest } = image;
      await atomically(async (session) => {
        // Without transactions (FerretDB) the count comes first, marked with the image's id: a
        // process killed between the two leaves a count its retry finds (a batch item's record id is
        // the same on every try), not a record the count misses.
        const added = !(await counts.counted(id, session));
        if (added) await counts.add(image.userId, 1, session, id);
        try {
          await images.insertOne({ _id: id, ...rest, titleKey: titleSortKey(image.title) }, { session });
        } catch (err) {
          if (added && !session) await counts.add(image.userId, -1).catch(() => undefined);
          throw err;
        }
      });
    },
    async list(userId, q) {
      const dir: SortDirection = q.order === 'asc' ? 1 : -1;
      const sort: Sort = q.sort === 'title' ? { titleKey: dir, _id: dir } : { createdAt: dir, _id: dir };
      const [docs, total] = await Promise.all([
        images.find({ userId }).sort(sort).skip(q.offset).limit(q.limit).toArray(),
        counts.get(userId),
      ]);
      return { items: docs.map(toImage), total };
    },
    async *allBlobKeys() {
      for await (const doc of images.find({}, { projection: { imageKey: 1, thumbnailKey: 1 } })) {
        yield doc.imageKey;
        yield doc.thumbnailKey;
      }
    },
    async findById(userId, id) {
      const doc = await images.findOne({ _id: id, userId });
      return doc ? toImage(doc) : undefined;
    },
    async delete(userId, id) {
      // Read, then delete: only the delete that removed it answers the record (findOneAndDelete
      // is a read then a delete on FerretDB, so two callers would both get it).
      const doc = await images.findOne({ _id: id, userId });
      if (!doc) return undefined;
      let deleted = false;
      await atomically(async (session) => {
        deleted = (await images.deleteOne({ _id: id, userId }, { session })).deletedCount === 1;
        if (deleted) await counts.add(userId, -1, session);
      });
      return deleted ? toImage(doc) : undefined;
    },
    async deleteAllForUser(userId) {
      const docs = await images.find({ userId }).toArray();
      await atomically(async (session) => {
        const { deletedCount } = await images.deleteMany(
          { _id: { $in: docs.map((d) => d._id) } },
          { session },
        );
        if (deletedCount > 0) await counts.add(userId, -deletedCount, session);
      });
      return docs.map(toImage);
    },
    async countByDay(userId, from, to) {
      // Bucketed here rather than with $dateToString, which not every compatible server supports.
      const counts: Record<string, number> = {};
      const cursor = images.find(
        { userId, createdAt: { $gte: from, $lt: to } },
        { projection: { createdAt: 1 } },
      );
      for await (const doc of cursor) {
        const day = doc.createdAt.toISOString().slice(0, 10);
        counts[day] = (counts[day] ?? 0) + 1;
      }
      return counts;
    },
  };
}
