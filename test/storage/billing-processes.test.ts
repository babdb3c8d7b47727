/**
 * Stripe's deliveries reaching two API processes at once (issue 52): the same event, delivered to
 * both several times over, is applied exactly once, on the embedded default (one DATA_DIR) and on
 * MongoDB; a newer event then moves the workspace on, whichever process takes it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { BILLING_ENV, deliver, stripeEvent, subscription } from '../support/stripe.js';
import { runCli, spawnServer, type ServerProcess } from '../support/process.js';
import { call } from '../support/server.js';

const stripeUrl = inject('stripeUrl');
const mongoUri = inject('mongoUri');

const stores: [string, (dir: string) => Record<string, string>][] = [
  ['the embedded default', () => ({})],
  ...(mongoUri
    ? [
        [
          'MongoDB',
          () => ({ MONGODB_URI: mongoUri, MONGODB_DB: `billing_${process.pid}_${Date.now()}` }),
        ] as [string, (dir: string) => Record<string, string>],
      ]
    : []),
];

describe.skipIf(!stripeUrl).each(stores)('billing events on two processes: %s', (_name, storeEnv) => {
  const running: ServerProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('the same event sent to both, eight times, is applied once; the next moves the workspace on; reordered across them, the latest wins', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-billing-'));
    dirs.push(dir);
    const env = { DATA_DIR: dir, ...BILLING_ENV(stripeUrl ?? ''), ...storeEnv(dir) };
    const made = await runCli(
      ['users', 'create', '--email', 'payer@example.com', '--name', 'Payer', '--tier', 'free', '--json'],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const { user, token } = JSON.parse(made.stdout) as { user: { id: string }; token: string };
    const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    running.push(a, b);

    const created = stripeEvent(
      'customer.subscription.created',
      subscription(`sub_${user.id}`, user.id, 'active'),
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => deliver((i % 2 ? a : b).base, created)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((r) => r.body.data?.applied)).toHaveLength(1);
    for (const p of [a, b])
      expect((await call(p.base, 'GET', '/usage', { token })).body.data.tier).toBe('pro');

    const later = stripeEvent(
      'customer.subscription.updated',
      subscription(`sub_${user.id}`, user.id, 'active', { price: 'price_agency_yearly' }),
    );
    expect((await deliver(b.base, later)).body.data).toEqual({ applied: true });
    for (const p of [a, b])
      expect((await call(p.base, 'GET', '/usage', { token })).body.data.tier).toBe('agency');

    // Reordered across the two: the end arrives at one before an older update at the other.
    const t = Math.floor(Date.now() / 1000);
    const ended = stripeEvent(
      'customer.subscription.deleted',
      subscription(`sub_${user.id}`, user.id, 'canceled'),
      t + 5,
    );
    const older = stripeEvent(
      'customer.subscription.updated',
      subscription(`sub_${user.id}`, user.id, 'active'),
      t + 1,
    );
    expect((await deliver(a.base, ended)).body.data).toEqual({ applied: true });
    expect((await deliver(b.base, older)).body.data).toEqual({ applied: false });
    for (const p of [a, b])
      expect((await call(p.base, 'GET', '/usage', { token })).body.data.tier).toBe('free');
  });
});
