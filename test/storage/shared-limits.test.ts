/**
 * The limits counted in Redis (REDIS_URL, src/adapters/storage/limits.ts): sign-in guesses, password-reset
 * requests, previews and the OAuth endpoints' limits count across processes, so N processes give
 * no more tries than one (issue 27). Each "process" of the throttle tests holds its own Redis
 * client, as two processes would; the OAuth test runs two real server processes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { PASSWORD_GUESS_KEYS, PASSWORD_GUESS_LIMITS } from '../../src/domain/accounts/password-guard.js';
import { openLimits, type SharedLimits } from '../../src/adapters/storage/limits.js';
import {
  createPasswordGuessThrottle,
  createThrottle,
  memoryLimiters,
  type Limiters,
} from '../../src/adapters/storage/throttle.js';
import { spawnServer } from '../support/process.js';

const redisUrl = inject('redisUrl');
const run = randomBytes(4).toString('hex');

describe.skipIf(!redisUrl)(`limits shared through Redis${redisUrl ? '' : ' (no Redis server)'}`, () => {
  let a: SharedLimits;
  let b: SharedLimits;
  beforeAll(async () => {
    [a, b] = await Promise.all([openLimits(redisUrl), openLimits(redisUrl)]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  /** Hits `key` `count` times, alternating between two processes' throttles; the waits answered. */
  const alternate = async (
    throttles: { hit(key: string): Promise<number> }[],
    key: string,
    count: number,
  ) => {
    const waits: number[] = [];
    for (let i = 0; i < count; i++)
      waits.push(await (throttles[i % 2] as (typeof throttles)[number]).hit(key));
    return waits;
  };

  it("a client's failed sign-ins count across processes: the limit is reached as in one process", async () => {
    const shared = [createPasswordGuessThrottle(a.limiters), createPasswordGuessThrottle(b.limiters)];
    const client = `${PASSWORD_GUESS_KEYS.client}203.0.113.7-${run}`;
    const waits = await alternate(shared, client, PASSWORD_GUESS_LIMITS.perClient);
    expect(waits.slice(0, -1).every((w) => w === 0)).toBe(true);
    expect(waits.at(-1)).toBeGreaterThan(0);
    for (const t of shared) expect(await t.blockedFor(client)).toBeGreaterThan(0);
    // In each process's memory the same failures leave both far from their limit.
    const apart = [createPasswordGuessThrottle(memoryLimiters), createPasswordGuessThrottle(memoryLimiters)];
    expect((await alternate(apart, client, PASSWORD_GUESS_LIMITS.perClient)).every((w) => w === 0)).toBe(
      true,
    );
  });

  it("an account's doubling waits, and their reset by a correct password, are seen by every process", async () => {
    const [one, two] = [createPasswordGuessThrottle(a.limiters), createPasswordGuessThrottle(b.limiters)];
    const pair = `${PASSWORD_GUESS_KEYS.pair}ada-${run}@example.com|198.51.100.9`;
    const waits = await alternate([one, two], pair, PASSWORD_GUESS_LIMITS.freePerPair + 1);
    expect(waits.at(-2)).toBeGreaterThan(0);
    expect(waits.at(-1)).toBe(2 * (waits.at(-2) as number));
    expect(await two.blockedFor(pair)).toBeGreaterThan(0);
    await one.reset(pair);
    expect(await two.blockedFor(pair)).toBe(0);
  });

  it('a window of previews (or password resets) is one window over all processes', async () => {
    const throttle = (limiters: Limiters) =>
      createThrottle({ name: `preview-test-${run}`, points: () => 4, windowSeconds: 60 }, limiters);
    const waits = await alternate([throttle(a.limiters), throttle(b.limiters)], 'preview:user', 5);
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThan(0);
    expect(waits[4]).toBeGreaterThan(0);
  });

  it("the OAuth token endpoint's limit (50 per 15 minutes per address) counts over two server processes", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-limits-'));
    const env = { DATA_DIR: dataDir, REDIS_URL: redisUrl as string };
    const servers = await Promise.all([spawnServer(env), spawnServer(env)]);
    try {
      const post = (i: number) =>
        fetch(`${(servers[i % 2] as (typeof servers)[number]).url}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code&code=x&code_verifier=x&client_id=nobody',
        }).then((r) => r.status);
      const statuses: number[] = [];
      for (let i = 0; i < 51; i++) statuses.push(await post(i));
      expect(statuses.slice(0, 50).includes(429)).toBe(false);
      expect(statuses[50]).toBe(429);
      // The other process refuses too: the window is one.
      expect(await post(51)).toBe(429);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('REDIS_URL that cannot be used', () => {
  it('stops start-up with a message naming REDIS_URL', async () => {
    const refused = openLimits('redis://127.0.0.1:1');
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/REDIS_URL/);
  });
});
