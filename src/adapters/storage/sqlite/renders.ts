/** Render links rendered so far, by content hash, with the claim that makes concurrent first fetches render once. */
import type Database from 'better-sqlite3';
import type { RecordStore, RenderClaim } from '../../../domain/kernel/ports.js';
import { toRender, type RenderRow } from './rows.js';

/** The `renders` repository of the {@link RecordStore} on SQLite. */
export function sqliteRenders(db: Database.Database): RecordStore['renders'] {
  const q = {
    render: db.prepare<[string], RenderRow>('SELECT * FROM renders WHERE hash = ?'),
    insertRender: db.prepare(
      `INSERT INTO renders (hash, user_id, state, blob_key, content_type, claimed_at)
       VALUES (@hash, @userId, 'rendering', NULL, NULL, @claimedAt)`,
    ),
    reclaimRender: db.prepare(
      `UPDATE renders SET claimed_at = @claimedAt, user_id = @userId
       WHERE hash = @hash AND state = 'rendering' AND claimed_at < @staleBefore`,
    ),
    completeRender: db.prepare(
      "UPDATE renders SET state = 'done', blob_key = ?, content_type = ? WHERE hash = ?",
    ),
    releaseRender: db.prepare("DELETE FROM renders WHERE hash = ? AND state = 'rendering'"),
    deleteRenders: db.prepare<[string], RenderRow>('DELETE FROM renders WHERE user_id = ? RETURNING *'),
    setLatest: db.prepare('INSERT OR REPLACE INTO render_latest (link, user_id, hash) VALUES (?, ?, ?)'),
    latest: db.prepare<[string], { hash: string }>('SELECT hash FROM render_latest WHERE link = ?'),
    deleteLatest: db.prepare('DELETE FROM render_latest WHERE user_id = ?'),
  };
  return {
    async find(hash) {
      const r = q.render.get(hash);
      return r && toRender(r);
    },
    async claim(hash, userId, at, staleBefore) {
      // One IMMEDIATE transaction: the read and the insert or takeover are one step across processes.
      return db
        .transaction((): RenderClaim => {
          const row = q.render.get(hash);
          if (!row) {
            q.insertRender.run({ hash, userId, claimedAt: at.toISOString() });
            return { state: 'claimed' };
          }
          if (row.state === 'done') return { state: 'done', entry: toRender(row) };
          const taken = q.reclaimRender.run({
            hash,
            userId,
            claimedAt: at.toISOString(),
            staleBefore: staleBefore.toISOString(),
          });
          return taken.changes === 1 ? { state: 'claimed' } : { state: 'rendering' };
        })
        .immediate();
    },
    async complete(hash, blobKey, contentType) {
      q.completeRender.run(blobKey, contentType, hash);
    },
    async release(hash) {
      q.releaseRender.run(hash);
    },
    async setLatest(link, userId, hash) {
      q.setLatest.run(link, userId, hash);
    },
    async latest(link) {
      return q.latest.get(link)?.hash;
    },
    async deleteAllForUser(userId) {
      q.deleteLatest.run(userId);
      return q.deleteRenders.all(userId).map(toRender);
    },
  };
}
