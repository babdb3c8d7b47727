/** Templates (src/domain/templates), with a version that every update raises. */
import type { Collection, Db } from 'mongodb';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import type { TemplateRecord } from '../../../domain/kernel/records.js';

interface TemplateDoc extends Omit<TemplateRecord, 'id'> {
  _id: string;
}
const toTemplate = ({ _id, ...rest }: TemplateDoc): TemplateRecord => ({ id: _id, ...rest });

/** The `templates` repository of the {@link RecordStore} on MongoDB; creates its index first. */
export async function mongoTemplates(db: Db): Promise<RecordStore['templates']> {
  const templates: Collection<TemplateDoc> = db.collection('templates');
  await templates.createIndex({ userId: 1, createdAt: -1 }, { name: 'templates_by_user' });
  return {
    async create({ id, ...rest }) {
      await templates.insertOne({ _id: id, ...rest });
    },
    async find(userId, id) {
      const doc = await templates.findOne({ _id: id, userId });
      return doc ? toTemplate(doc) : undefined;
    },
    async list(userId) {
      return (await templates.find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toTemplate);
    },
    async count(userId) {
      return templates.countDocuments({ userId });
    },
    async update(userId, id, changes) {
      const doc = await templates.findOneAndUpdate(
        { _id: id, userId },
        {
          $set: { name: changes.name, document: changes.document, updatedAt: changes.updatedAt },
          $inc: { version: 1 },
        },
        { returnDocument: 'after' },
      );
      return doc ? toTemplate(doc) : undefined;
    },
    async delete(userId, id) {
      return (await templates.deleteOne({ _id: id, userId })).deletedCount === 1;
    },
    async countUsing(userId, id) {
      return templates.countDocuments({
        userId,
        $or: [{ 'document.layers.source': id }, { 'document.layers.font.custom': id }],
      });
    },
    async deleteAllForUser(userId) {
      await templates.deleteMany({ userId });
    },
  };
}
