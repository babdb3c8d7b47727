/** The monthly quota's counter: one row per account and month, charged by one atomic statement. */
import type Database from 'better-sqlite3';
import type { RecordStore } from '../../../domain/kernel/ports.js';

/** The `usage` repository of the {@link RecordStore} on SQLite. */
export function sqliteUsage(db: Database.Database): RecordStore['usage'] {
  const q = {
    usage: db.prepare<[string, string], { count: number }>(
      'SELECT count FROM usage WHERE user_id = ? AND month = ?',
    ),
    // One statement, so one atomic step even across processes: insert the first unit of the month,
    // or add one unless the limit is reached. `changes` is 0 exactly when the quota is used up.
    charge: db.prepare(
      `INSERT INTO usage (user_id, month, count) VALUES (@userId, @month, 1)
       ON CONFLICT (user_id, month) DO UPDATE SET count = count + 1 WHERE count < @limit`,
    ),
    refund: db.prepare('UPDATE usage SET count = count - 1 WHERE user_id = ? AND month = ? AND count > 0'),
    // A key is charged once whatever the month (a generation charged on the 31st before midnight
    // and finished after it is not charged again), and refunded in the month it was charged in.
    keyed: db.prepare<[string], { month: string }>('SELECT month FROM usage_charges WHERE key = ?'),
    insertKey: db.prepare('INSERT INTO usage_charges (key, user_id, month, charged_at) VALUES (?, ?, ?, ?)'),
    // A prefix as a key range: `key >= prefix AND key < prefix + U+FFFF`.
    keyedBetween: db.prepare<
      [string, string, string, string, number],
      { key: string; user_id: string; month: string }
    >(
      `SELECT key, user_id, month FROM usage_charges
       WHERE charged_at >= ? AND charged_at < ? AND key >= ? AND key < ? ORDER BY charged_at LIMIT ?`,
    ),
    deleteKey: db.prepare('DELETE FROM usage_charges WHERE key = ?'),
    settle: db.prepare('UPDATE usage_charges SET charged_at = NULL WHERE key = ?'),
  };
  const KEYED = 'key:';
  // The key is written in the charge's transaction: a crash leaves both or neither.
  const chargeOnce = db.transaction((userId: string, month: string, limit: number, key: string) => {
    if (q.keyed.get(key)) return `${KEYED}${key}`;
    if (q.charge.run({ userId, month, limit }).changes !== 1) return undefined;
    q.insertKey.run(key, userId, month, new Date().toISOString());
    return `${KEYED}${key}`;
  });
  const refundOnce = db.transaction((userId: string, month: string, receipt: string) => {
    if (!receipt.startsWith(KEYED)) return void q.refund.run(userId, month);
    const key = receipt.slice(KEYED.length);
    const charged = q.keyed.get(key);
    if (!charged) return;
    q.deleteKey.run(key);
    q.refund.run(userId, charged.month);
  });
  return {
    async get(userId, month) {
      return q.usage.get(userId, month)?.count ?? 0;
    },
    async tryCharge(userId, month, limit) {
      // The counter is the whole state here: any receipt refunds one unit.
      return q.charge.run({ userId, month, limit }).changes === 1 ? `${userId}:${month}` : undefined;
    },
    async tryChargeOnce(userId, month, limit, key) {
      return chargeOnce.immediate(userId, month, limit, key);
    },
    async settle(key) {
      // NULL: out of the sweep's time range.
      q.settle.run(key);
    },
    async keyedBetween(prefix, from, to, limit) {
      return q.keyedBetween
        .all(from.toISOString(), to.toISOString(), prefix, `${prefix}\uffff`, limit)
        .map((r) => ({ userId: r.user_id, month: r.month, key: r.key, receipt: `${KEYED}${r.key}` }));
    },
    async refund(userId, month, receipt) {
      // A keyed receipt refunds once (its key row goes with the unit); any other refunds one unit.
      refundOnce.immediate(userId, month, receipt);
    },
  };
}
