/** The RecordStore contract, webhooks: endpoints per user, deliveries taken when due under a lease, attempts recorded. */
import { expect, it } from 'vitest';
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { WebhookDelivery } from '../../../../src/domain/kernel/records.js';
import type { ContractContext } from './fixtures.js';

export function webhooksContract({ open }: ContractContext): void {
  it('keeps endpoints per user; takes a due delivery once under its lease, not while its account is busy, again when the lease ends; records attempts; deletes with the endpoint', async () => {
    const store = await open();
    const userId = newId('usr');
    const at = new Date('2026-11-21T10:00:00.000Z');
    const endpoint = {
      id: newId('whk'),
      userId,
      url: 'https://hooks.example.com/a',
      sealedSecret: 'v1.a.b.c',
      createdAt: at,
    };
    await store.webhooks.createEndpoint(endpoint);
    expect(await store.webhooks.listEndpoints(userId)).toEqual([endpoint]);
    expect(await store.webhooks.listEndpoints(newId('usr'))).toEqual([]);

    // Far in the past, so that no other test's delivery is older.
    const due = new Date('2000-01-01T00:00:00.000Z');
    const delivery: WebhookDelivery = {
      id: newId('msg'),
      userId,
      endpointId: endpoint.id,
      batchId: null,
      url: endpoint.url,
      type: 'webhook.test',
      payload: '{"type":"webhook.test"}',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: due,
      lastStatus: null,
      lastError: null,
      createdAt: at,
      deliveredAt: null,
    };
    await store.webhooks.enqueue([delivery]);
    const lease = new Date(due.getTime() + 60_000);
    // An account in `busy` (its deliveries already fill its share of the runner) is passed over.
    expect((await store.webhooks.claimDue(due, lease, [userId]))?.id).not.toBe(delivery.id);
    const taken = await store.webhooks.claimDue(due, lease, [newId('usr')]);
    expect(taken).toMatchObject({ id: delivery.id, payload: delivery.payload, attempts: 0 });
    // Leased: not due again until the lease ends.
    expect((await store.webhooks.claimDue(due, lease, []))?.id).not.toBe(delivery.id);
    expect((await store.webhooks.claimDue(lease, new Date(lease.getTime() + 60_000), []))?.id).toBe(
      delivery.id,
    );

    await store.webhooks.recordAttempt(delivery.id, {
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: lease,
      lastStatus: 204,
      lastError: null,
      deliveredAt: lease,
    });
    const [listed] = await store.webhooks.listDeliveries(userId, 10);
    expect(listed).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 204, deliveredAt: lease });
    expect(await store.webhooks.listDeliveries(userId, 10, newId('whk'))).toEqual([]);
    expect(await store.webhooks.deleteEndpoint(newId('usr'), endpoint.id)).toBe(false);
    expect(await store.webhooks.deleteEndpoint(userId, endpoint.id)).toBe(true);
    expect(await store.webhooks.listDeliveries(userId, 10)).toEqual([]);
    await store.webhooks.deleteAllForUser(userId);
    await store.close();
  });

  it('of many processes claiming due deliveries at the same moment, one takes each (issue 44: FerretDB sent every event twice)', async () => {
    const [a, b] = [await open(), await open()];
    const userId = newId('usr');
    const at = new Date('2026-11-21T10:00:00.000Z');
    const ids = Array.from({ length: 6 }, () => newId('msg'));
    await a.webhooks.enqueue(
      ids.map((id, i) => ({
        id,
        userId,
        endpointId: null,
        batchId: null,
        url: 'https://hooks.example.com/b',
        type: 'webhook.test',
        payload: '{}',
        status: 'pending' as const,
        attempts: 0,
        // Older than any other test's, so these are the ones due first.
        nextAttemptAt: new Date(Date.UTC(1999, 0, 1, 0, 0, i)),
        lastStatus: null,
        lastError: null,
        createdAt: at,
        deliveredAt: null,
      })),
    );
    const lease = new Date('2099-01-01T00:00:00.000Z');
    const claimed = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).webhooks.claimDue(at, lease, [])),
    );
    const mine = claimed.map((d) => d?.id).filter((id) => id !== undefined && ids.includes(id));
    expect(mine.length).toBe(new Set(mine).size);
    await a.webhooks.deleteAllForUser(userId);
    await Promise.all([a.close(), b.close()]);
  });
}
