/** Accounts: one row per user, the email unique (lower-cased by the domain). */
import type Database from 'better-sqlite3';
import { emailTakenError } from '../../../domain/kernel/errors.js';
import type { RecordStore } from '../../../domain/kernel/ports.js';
import { toUser, USER_COLUMNS, type UserRow } from './rows.js';

/** The `users` repository of the {@link RecordStore} on SQLite. */
export function sqliteUsers(db: Database.Database): RecordStore['users'] {
  const q = {
    insertUser: db.prepare(
      `INSERT INTO users (id, email, display_name, created_at, password_hash, email_verified_at)
       VALUES (@id, @email, @displayName, @createdAt, @passwordHash, @emailVerifiedAt)`,
    ),
    deleteUser: db.prepare('DELETE FROM users WHERE id = ?'),
    userById: db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
    userByEmail: db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?'),
  };
  return {
    async create(user) {
      try {
        q.insertUser.run({
          ...user,
          createdAt: user.createdAt.toISOString(),
          emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
        });
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw emailTakenError(user.email);
        throw err;
      }
    },
    async findById(id) {
      const r = q.userById.get(id);
      return r && toUser(r);
    },
    async findByEmail(email) {
      const r = q.userByEmail.get(email);
      return r && toUser(r);
    },
    async update(id, changes) {
      const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return q.userById.get(id) !== undefined;
      const sets = entries.map(([k]) => `${USER_COLUMNS[k as keyof typeof USER_COLUMNS]} = ?`).join(', ');
      const values = entries.map(([, v]) => (v instanceof Date ? v.toISOString() : v));
      try {
        return db.prepare(`UPDATE users SET ${sets} WHERE id = ?`).run(...values, id).changes === 1;
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
          throw emailTakenError(changes.email ?? '');
        throw err;
      }
    },
    async delete(id) {
      q.deleteUser.run(id);
    },
  };
}
