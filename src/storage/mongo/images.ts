/** Image records: a page of an account's images in any of the four orders (title by a lower-cased copy), and the total. */
import type { Collection, Db, Sort, SortDirection } from 'mongodb';
import type { RecordStore } from '../../domain/kernel/ports.js';
import { toImage, type ImageDoc } from './documents.js';

/** The `images` repository of the {@link RecordStore} on MongoDB; creates its indexes first. */
export async function mongoImages(db: Db): Promise<RecordStore['images']> {
  const images: Collection<ImageDoc> = db.collection('images');
  await Promise.all([
    images.createIndex({ userId: 1, createdAt: -1, _id: -1 }, { name: 'images_by_user_created' }),
    images.createIndex({ userId: 1, titleLower: 1, _id: 1 }, { name: 'images_by_user_title' }),
  ]);
  return {
    async insert(image) {
      const { id, ...rest } = image;
      await images.insertOne({ _id: id, ...rest, titleLower: image.title.toLowerCase() });
    },
    async list(userId, q) {
      const dir: SortDirection = q.order === 'asc' ? 1 : -1;
      const sort: Sort = q.sort === 'title' ? { titleLower: dir, _id: dir } : { createdAt: dir, _id: dir };
      const [docs, total] = await Promise.all([
        images.find({ userId }).sort(sort).skip(q.offset).limit(q.limit).toArray(),
        images.countDocuments({ userId }),
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
      if (!doc || (await images.deleteOne({ _id: id, userId })).deletedCount !== 1) return undefined;
      return toImage(doc);
    },
    async deleteAllForUser(userId) {
      const docs = await images.find({ userId }).toArray();
      await images.deleteMany({ _id: { $in: docs.map((d) => d._id) } });
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
