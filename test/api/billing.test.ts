/**
 * Billing through real HTTP against stripe-mock, Stripe's own mock of its API (issue 52,
 * docs/billing.md): the quota wall names the upgrade, a Checkout Session is made, the events that
 * follow (signed with the test's webhook secret, as Stripe signs them) move the workspace's tier;
 * forged, stale, replayed and reordered events change nothing they should not; the portal; the
 * past-due grace; and with billing off, nothing of it answers.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fakeClock } from '../support/domain.js';
import { solid } from '../support/images.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { call, generate, startTestServer, type TestServer } from '../support/server.js';
import { BILLING_ENV, deliver, stripeEvent, subscription } from '../support/stripe.js';

const stripeUrl = inject('stripeUrl');
describe.skipIf(!stripeUrl)('billing with Stripe (stripe-mock)', () => {
  let srv: TestServer;
  let small: Buffer;
  const clock = fakeClock(new Date().toISOString());
  beforeAll(async () => {
    srv = await startTestServer({ env: BILLING_ENV(stripeUrl ?? ''), clock });
    small = await solid([90, 40, 120], 'jpeg', 480, 300);
  });
  afterAll(() => srv.close());
  const tier = async (token: string) =>
    (await call(srv.base, 'GET', '/usage', { token })).body.data.tier as string;

  it('a free account at the quota wall is offered the upgrade, checks out Pro, and makes its 11th card once the event lands; then cancels and is Free at period end', async () => {
    const owner = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.ledger.charge(owner.workspace);
    const wall = await generate(srv.base, owner.token, { title: 'The 11th' }, { data: small });
    expect(wall.status).toBe(429);
    assertMatchesOpenApi('POST', '/generate', 429, wall.body);
    expect(wall.body).toMatchObject({
      error: 'Rate limit exceeded',
      retryAfter: expect.any(Number),
      upgradeUrl: `${srv.url}/settings/billing`,
    });
    expect(wall.body.message).toContain(`${srv.url}/settings/billing`);

    const checkout = await call(srv.base, 'POST', '/billing/checkout', {
      token: owner.token,
      json: { tier: 'pro', interval: 'month' },
    });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    assertMatchesOpenApi('POST', '/billing/checkout', 200, checkout.body);
    expect(checkout.body.data.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    // Stripe's answer once the person has paid: the session, naming the workspace and the subscription.
    const completed = await deliver(
      srv.base,
      stripeEvent('checkout.session.completed', {
        id: 'cs_test_1',
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: owner.workspace.id,
        customer: `cus_${owner.workspace.id}`,
        subscription: `sub_${owner.workspace.id}`,
      }),
    );
    expect(completed).toEqual({ status: 200, body: { success: true, data: { applied: true } } });
    expect(await tier(owner.token)).toBe('pro');
    expect((await generate(srv.base, owner.token, { title: 'The 11th' }, { data: small })).status).toBe(201);
    const plan = await call(srv.base, 'GET', '/billing', { token: owner.token });
    assertMatchesOpenApi('GET', '/billing', 200, plan.body);
    expect(plan.body.data).toMatchObject({ tier: 'pro', status: 'active', interval: 'month' });
    // The prices as Stripe has them (stripe-mock's fixture amount), for the Billing page.
    expect(plan.body.data.plans.agency.year).toEqual({
      id: 'price_agency_yearly',
      amount: expect.any(Number),
      currency: 'usd',
    });
    // Stripe's next word on it: renewing (stripe-mock's fixture says otherwise; events are newer).
    const sub = `sub_${owner.workspace.id}`;
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.updated', subscription(sub, owner.workspace.id, 'active')),
    );
    expect(
      (await call(srv.base, 'GET', '/billing', { token: owner.token })).body.data.cancelAtPeriodEnd,
    ).toBe(false);

    // The portal: there the person cancels at period end; Stripe says so, then ends it at that date.
    const portal = await call(srv.base, 'POST', '/billing/portal', { token: owner.token });
    expect(portal.status).toBe(200);
    expect(portal.body.data.url).toMatch(/^https:\/\//);
    const mailsBefore = srv.mail.length;
    await deliver(
      srv.base,
      stripeEvent(
        'customer.subscription.updated',
        subscription(sub, owner.workspace.id, 'active', { cancelAtPeriodEnd: true }),
      ),
    );
    expect(await tier(owner.token)).toBe('pro');
    expect(
      (await call(srv.base, 'GET', '/billing', { token: owner.token })).body.data.cancelAtPeriodEnd,
    ).toBe(true);
    const notice = await srv.mailTo(owner.user.email, /returns to the Free tier/, mailsBefore);
    expect(notice.subject).toContain('returns to Free on 2030-03-17');
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.deleted', subscription(sub, owner.workspace.id, 'canceled')),
    );
    expect(await tier(owner.token)).toBe('free');
    // The audit log has each change of tier.
    const log = await call(srv.base, 'GET', `/workspaces/${owner.workspace.id}/audit`, {
      token: owner.token,
    });
    expect(
      (log.body.data.entries as { action: string; details: Record<string, string> }[])
        .filter((e) => e.action === 'subscription.changed')
        .map((e) => `${e.details.from}→${e.details.to}`),
    ).toEqual(['pro→free', 'free→pro']);
  });

  it('an MCP client that takes URL elicitation is offered the upgrade page at the quota wall, and its call goes through once the person has upgraded; another is told the page', async () => {
    const owner = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.ledger.charge(owner.workspace);
    const offered: { mode?: string; url?: string; message?: string }[] = [];
    const client = new Client(
      { name: 'elicitation test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      offered.push(request.params);
      // The person opens the page and pays; Stripe tells Titlecard; then the assistant is told to go on.
      await deliver(
        srv.base,
        stripeEvent(
          'customer.subscription.created',
          subscription(`sub_mcp_${owner.workspace.id}`, owner.workspace.id, 'active'),
        ),
      );
      return { action: 'accept' };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
      }),
    );
    const made = await client.callTool({
      name: 'generate_image',
      arguments: { title: 'After the upgrade', imageBase64: small.toString('base64') },
    });
    await client.close();
    expect(offered).toEqual([
      expect.objectContaining({
        mode: 'url',
        url: `${srv.url}/settings/billing`,
        message: expect.stringContaining('quota'),
      }),
    ]);
    expect(made.isError).toBeFalsy();
    expect(await tier(owner.token)).toBe('pro');

    // A client without URL elicitation: the tool's answer names the page.
    const plain = await srv.createUser('free');
    for (let i = 0; i < 10; i++) await srv.services.ledger.charge(plain.workspace);
    const other = new Client(
      { name: 'plain', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await other.connect(
      new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${plain.token}` } },
      }),
    );
    const refused = await other.callTool({
      name: 'generate_image',
      arguments: { title: 'No room', imageBase64: small.toString('base64') },
    });
    await other.close();
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(`${srv.url}/settings/billing`);
  });

  it('a forged, stale or unsigned event answers 400 and changes nothing; the same event twice changes once', async () => {
    const owner = await srv.createUser('free');
    const event = stripeEvent(
      'customer.subscription.created',
      subscription('sub_forged', owner.workspace.id, 'active'),
    );
    const forged = await deliver(srv.base, event, { secret: 'whsec_someone_else' });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('signature'),
    });
    const stale = await deliver(srv.base, event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(400);
    const unsigned = await fetch(`${srv.base}/billing/webhook`, {
      method: 'POST',
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect(await tier(owner.token)).toBe('free');

    expect((await deliver(srv.base, event)).body.data).toEqual({ applied: true });
    expect((await deliver(srv.base, event)).body.data).toEqual({ applied: false });
    expect(await tier(owner.token)).toBe('pro');
    const changes = (
      (await call(srv.base, 'GET', `/workspaces/${owner.workspace.id}/audit`, { token: owner.token })).body
        .data.entries as { action: string }[]
    ).filter((e) => e.action === 'subscription.changed');
    expect(changes).toHaveLength(1);
  });

  it('a deleted event before its updated: the final state is the latest (Free); an ended subscription never comes back', async () => {
    const owner = await srv.createUser('free');
    const sub = `sub_order_${owner.workspace.id}`;
    const t = Math.floor(Date.now() / 1000);
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.created', subscription(sub, owner.workspace.id, 'active'), t - 30),
    );
    expect(await tier(owner.token)).toBe('pro');
    const updated = stripeEvent(
      'customer.subscription.updated',
      subscription(sub, owner.workspace.id, 'active'),
      t - 10,
    );
    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscription(sub, owner.workspace.id, 'canceled'),
      t - 5,
    );
    expect((await deliver(srv.base, deleted)).body.data).toEqual({ applied: true });
    expect((await deliver(srv.base, updated)).body.data).toEqual({ applied: false });
    expect(await tier(owner.token)).toBe('free');
    // Even a newer event naming it active again does not revive it.
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.updated', subscription(sub, owner.workspace.id, 'active'), t),
    );
    expect(await tier(owner.token)).toBe('free');
  });

  it('past due keeps the tier 7 days and mails the owner, then the sweep returns the workspace to Free', async () => {
    const owner = await srv.createUser('free');
    const sub = `sub_due_${owner.workspace.id}`;
    await deliver(
      srv.base,
      stripeEvent(
        'customer.subscription.created',
        subscription(sub, owner.workspace.id, 'active', { price: 'price_agency_monthly' }),
      ),
    );
    expect(await tier(owner.token)).toBe('agency');
    const before = srv.mail.length;
    await deliver(
      srv.base,
      stripeEvent(
        'customer.subscription.updated',
        subscription(sub, owner.workspace.id, 'past_due', { price: 'price_agency_monthly' }),
      ),
    );
    expect(await tier(owner.token)).toBe('agency');
    expect((await srv.mailTo(owner.user.email, /payment for the agency plan/, before)).subject).toContain(
      'failed',
    );
    const billing = srv.services.billing;
    if (!billing) throw new Error('billing is on here');
    const now = clock.now().getTime();
    clock.set(new Date(now + 6 * 24 * 3600 * 1000).toISOString());
    await billing.sweep();
    expect(await tier(owner.token)).toBe('agency');
    clock.set(new Date(now + 8 * 24 * 3600 * 1000).toISOString());
    expect(await billing.sweep()).toBeGreaterThanOrEqual(1);
    expect(await tier(owner.token)).toBe('free');
    clock.set(new Date(now).toISOString());
  });

  it('only owners buy: an admin reads the plan, an editor cannot, a viewer token gets 403; a second checkout is refused', async () => {
    const owner = await srv.createUser('free');
    const reader = await call(srv.base, 'POST', '/tokens', {
      token: owner.token,
      json: { name: 'reader', scopes: ['images:read'] },
    });
    const readOnly = reader.body.data.token as string;
    expect((await call(srv.base, 'GET', '/billing', { token: readOnly })).status).toBe(403);
    await deliver(
      srv.base,
      stripeEvent(
        'customer.subscription.created',
        subscription(`sub_twice_${owner.workspace.id}`, owner.workspace.id, 'active'),
      ),
    );
    const again = await call(srv.base, 'POST', '/billing/checkout', {
      token: owner.token,
      json: { tier: 'agency' },
    });
    expect(again.status).toBe(409);
    const bad = await call(srv.base, 'POST', '/billing/checkout', {
      token: owner.token,
      json: { tier: 'gold' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('tier');
  });
  it("unpaid gives Free until the invoice is paid; the end of an earlier subscription never replaces a live newer one; an owner's narrow token cannot reach the subscription", async () => {
    const owner = await srv.createUser('free');
    const ws = owner.workspace.id;
    const t = Math.floor(Date.now() / 1000);
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.created', subscription(`sub_a_${ws}`, ws, 'active'), t - 50),
    );
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.updated', subscription(`sub_a_${ws}`, ws, 'unpaid'), t - 40),
    );
    expect(await tier(owner.token)).toBe('free');
    await deliver(
      srv.base,
      stripeEvent('customer.subscription.updated', subscription(`sub_a_${ws}`, ws, 'active'), t - 30),
    );
    expect(await tier(owner.token)).toBe('pro');
    // A second subscription (another checkout), then the first one's end arrives late.
    await deliver(
      srv.base,
      stripeEvent(
        'customer.subscription.created',
        subscription(`sub_b_${ws}`, ws, 'active', { price: 'price_agency_monthly' }),
        t - 20,
      ),
    );
    expect(await tier(owner.token)).toBe('agency');
    expect(
      (
        await deliver(
          srv.base,
          stripeEvent('customer.subscription.deleted', subscription(`sub_a_${ws}`, ws, 'canceled'), t - 10),
        )
      ).body.data,
    ).toEqual({ applied: false });
    expect(await tier(owner.token)).toBe('agency');
    const narrow = await call(srv.base, 'POST', '/tokens', {
      token: owner.token,
      json: { name: 'ci', scopes: ['images:read', 'images:write'] },
    });
    const portal = await call(srv.base, 'POST', '/billing/portal', {
      token: narrow.body.data.token as string,
    });
    expect(portal.status).toBe(403);
    expect(portal.body.error.message).toContain('workspace:admin');
  });
});

describe.skipIf(!stripeUrl)('billing while Stripe does not answer', () => {
  let srv: TestServer;
  beforeAll(async () => {
    // Port 9 (discard): nothing listens there.
    srv = await startTestServer({ env: BILLING_ENV('http://127.0.0.1:9') });
  });
  afterAll(() => srv.close());

  it('a checkout answers 503 with Retry-After; an event that needs Stripe answers 503 at each delivery, so Stripe retries it, and none is taken as seen', async () => {
    const owner = await srv.createUser('free');
    const checkout = await call(srv.base, 'POST', '/billing/checkout', {
      token: owner.token,
      json: { tier: 'pro' },
    });
    expect(checkout.status).toBe(503);
    expect(checkout.body.error.code).toBe('UNAVAILABLE');
    expect(checkout.headers.get('retry-after')).toBe('30');
    const completed = stripeEvent('checkout.session.completed', {
      id: 'cs_test_down',
      object: 'checkout.session',
      client_reference_id: owner.workspace.id,
      customer: `cus_${owner.workspace.id}`,
      subscription: `sub_down_${owner.workspace.id}`,
    });
    expect((await deliver(srv.base, completed)).status).toBe(503);
    // Stripe retries; the claim was given back, so this delivery takes it (and meets the same outage).
    expect((await deliver(srv.base, completed)).status).toBe(503);
  });
});

describe('billing off (no STRIPE_SECRET_KEY)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(() => srv.close());

  it('answers 404 on every billing route, offers no upgrade at the quota wall, and shows no Billing page', async () => {
    const owner = await srv.createUser('free');
    for (const [method, path] of [
      ['GET', '/billing'],
      ['POST', '/billing/checkout'],
      ['POST', '/billing/portal'],
      ['POST', '/billing/webhook'],
    ] as const)
      expect(
        (
          await call(srv.base, method, path, {
            token: owner.token,
            ...(method === 'POST' ? { json: {} } : {}),
          })
        ).status,
        path,
      ).toBe(404);
    for (let i = 0; i < 10; i++) await srv.services.ledger.charge(owner.workspace);
    const wall = await generate(
      srv.base,
      owner.token,
      { title: 'x' },
      { data: await solid([1, 2, 3], 'jpeg', 300, 200) },
    );
    expect(wall.status).toBe(429);
    expect(Object.keys(wall.body as object).sort()).toEqual(['error', 'message', 'retryAfter']);
    expect(srv.services.billing).toBeUndefined();
  });
});
