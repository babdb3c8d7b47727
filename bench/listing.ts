/**
 * `npm run bench -- --listing`: a page of `GET /images` as an account grows, on the embedded
 * default (SQLite), at the record store: page one (newest first, 20 items), the last page (an
 * `offset` near the end), and another account's page one, sequential, medians; and the longest the
 * event loop waited while those pages were read (item 7 of issue 28: at most 20 ms at 1M images).
 *
 * The account's records are bulk-inserted in one transaction beside the store (the count triggers
 * run as for any insert); the sizes are 1k, 100k and 1M images unless `sizes` says otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { newId } from '../src/domain/kernel/ids.js';
import { titleSortKey, type ImagePageQuery } from '../src/domain/kernel/records.js';
import { openSqliteStore } from '../src/adapters/storage/sqlite/index.js';
import { delayLine, eventLoopDelay, median } from './stats.js';

const RUNS = 21;
const LIMIT = 20;

async function accountOf(store: ReturnType<typeof openSqliteStore>, email: string) {
  const id = newId('usr');
  await store.users.create({
    id,
    email,
    displayName: 'Bench',
    createdAt: new Date(),
    passwordHash: null,
    emailVerifiedAt: null,
  });
  return id;
}

function bulkInsert(file: string, userId: string, count: number) {
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO images (id, user_id, title, title_key, subtitle, width, height, format, image_key, thumbnail_key, created_at)
     VALUES (?, ?, ?, ?, NULL, 1200, 630, 'png', ?, ?, ?)`,
  );
  const t0 = Date.parse('2024-01-01T00:00:00Z');
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const key = newId('img').slice(4);
      insert.run(
        newId('img'),
        userId,
        `Post number ${i}`,
        titleSortKey(`Post number ${i}`),
        `${key}.png`,
        `${key}_thumb.png`,
        new Date(t0 + i * 1000).toISOString(),
      );
    }
  })();
  db.close();
}

export async function listingFigures(print: (line: string) => void, sizes = [1_000, 100_000, 1_000_000]) {
  print(`\nGET /images at the record store (SQLite), ${LIMIT} a page, medians of ${RUNS} sequential reads`);
  print(
    `${'images'.padStart(9)}${'page one'.padStart(12)}${'last page'.padStart(12)}${'other account'.padStart(15)}   event-loop delay meanwhile`,
  );
  for (const size of sizes) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-listing-'));
    const file = path.join(dir, 'titlecard.db');
    try {
      const store = openSqliteStore(file);
      const big = await accountOf(store, 'big@example.com');
      const small = await accountOf(store, 'small@example.com');
      bulkInsert(file, big, size);
      bulkInsert(file, small, 50);
      const time = async (userId: string, offset: number) => {
        const query: ImagePageQuery = { limit: LIMIT, offset, sort: 'createdAt', order: 'desc' };
        await store.images.list(userId, query);
        const runs: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const started = performance.now();
          const page = await store.images.list(userId, query);
          runs.push(performance.now() - started);
          if (page.items.length === 0) throw new Error(`empty page at offset ${offset}`);
        }
        return median(runs);
      };
      const ms: number[] = [];
      const delay = await eventLoopDelay(async () => {
        ms.push(await time(big, 0), await time(big, size - LIMIT), await time(small, 0));
      });
      const col = (v: number | undefined, w: number) => `${(v ?? 0).toFixed(1)} ms`.padStart(w);
      print(
        `${String(size).padStart(9)}${col(ms[0], 12)}${col(ms[1], 12)}${col(ms[2], 15)}   ${delayLine(delay)}`,
      );
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
