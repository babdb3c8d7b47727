/**
 * Accounts that hold under attack (docs/security.md), through real HTTP: what an attacker who knows
 * a victim's email, shares their network or reads the server's files and logs can and cannot do.
 */
import { mkdtemp, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../../src/logger.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('no secrets at rest or in logs that need not be there', () => {
  const lines: string[] = [];
  let srv: TestServer;
  beforeAll(async () => {
    const logger = pino(
      { level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
      { write: (line: string) => lines.push(line) },
    );
    // A DATA_DIR that does not exist yet: the server makes it.
    const parent = await mkdtemp(path.join(os.tmpdir(), 'titlecard-modes-'));
    srv = await startTestServer({ logger, dataDir: path.join(parent, 'data') });
  });
  afterAll(async () => srv?.close());

  it("an emailed link's token is redacted from the request log's url and referer", async () => {
    const secret = `lnk_${'S'.repeat(43)}`;
    await fetch(`${srv.url}/reset-password?token=${secret}`);
    await fetch(`${srv.url}/static/app.css`, {
      headers: { referer: `${srv.url}/verify-email?token=${secret}&x=1` },
    });
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('');
    expect(log).toContain('/reset-password?token=[redacted]');
    expect(log).toContain('/verify-email?token=[redacted]&x=1');
    expect(log).not.toContain(secret);
  });

  it('the data directory is owner-only (0700) and the SQLite database file too (0600)', async () => {
    expect((await stat(srv.dataDir)).mode & 0o777).toBe(0o700);
    for (const file of ['titlecard.db', 'titlecard.db-wal', 'titlecard.db-shm'])
      expect((await stat(path.join(srv.dataDir, file))).mode & 0o777, file).toBe(0o600);
  });
});
