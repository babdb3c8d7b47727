/**
 * Screenshots of the dashboard for the README and docs/dashboard.md (docs/dashboard-*.jpg), taken from the real app in
 * Chromium: a fresh server on a temporary DATA_DIR, an account signed up through the form (then
 * signed in, its email confirmed by the emailed link), a few
 * images made from the bundled sample photos, then the overview, the playground with its live
 * preview, the tokens page right after a token is created, the render links page with a link made,
 * the Members page of a shared workspace, the consent page, and the Billing page before and
 * after buying Pro (on stripe-mock, which it starts) for docs/billing.md. The consent page is the one
 * an assistant opens to connect with OAuth.
 *
 *   npx tsx scripts/screenshots.ts
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium, signedInPage } from '../test/support/browser.js';
import { startStripeMock } from '../test/support/server-processes.js';
import { BILLING_ENV, deliver, stripeEvent, subscription } from '../test/support/stripe.js';
import { startTestServer } from '../test/support/server.js';

const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../src/web/static/samples/', import.meta.url));

const srv = await startTestServer();
const browser = await launchChromium();
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  await page.goto(`${srv.url}/sign-up`);
  await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Password', { exact: true }).fill('analytical engine');
  await page.getByRole('button', { name: 'Create account' }).click();
  // Sign-up signs nobody in: sign in, and confirm the address with the emailed link.
  await page.getByRole('link', { name: 'Sign in', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
  await page.getByLabel('Password', { exact: true }).fill('analytical engine');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/overview');
  await srv.confirmEmail('ada@example.com');

  await srv.services.accounts.setTier('ada@example.com', 'pro');
  const principal = await srv.services.accounts.actAs('ada@example.com');
  const made = [
    ['seeding.jpg', 'Spring release notes', 'What shipped in April'],
    ['friends.jpg', 'Meet the team', 'Our new office dogs'],
    ['dragonfly.jpg', 'A field guide to dragonflies', '12 min read'],
    ['seeding.jpg', 'How we render titles in every script', 'Engineering'],
  ] as const;
  for (const [file, title, subtitle] of made)
    await srv.services.generation.generate(principal, async () => ({
      image: await readFile(`${SAMPLES}${file}`),
      options: { title, subtitle, template: title.length > 25 ? 'left' : 'bottom-left', fileFormat: 'jpeg' },
    }));

  await page.goto(`${srv.url}/overview`);
  await page.screenshot({ path: `${DOCS}dashboard-overview.jpg`, type: 'jpeg', quality: 82 });

  await page.goto(`${srv.url}/playground`);
  await page.getByLabel('Title', { exact: true }).fill('Ship faster with share cards that look designed');
  await page.getByLabel('Subtitle', { exact: true }).fill('Titlecard · 4 min read');
  await page.getByLabel('Template', { exact: true }).selectOption('left');
  await page.waitForTimeout(1500); // the preview is debounced: let the last keystroke's request finish
  await page.getByText('Preview updated.').waitFor();
  await page.screenshot({ path: `${DOCS}dashboard-playground.jpg`, type: 'jpeg', quality: 82 });

  await page.goto(`${srv.url}/settings/tokens`);
  await page.getByLabel('Token name', { exact: true }).fill('Blog build');
  await page.getByRole('button', { name: 'Create New Token' }).click();
  await page.getByLabel('New token', { exact: true }).waitFor();
  await page.screenshot({ path: `${DOCS}dashboard-tokens.jpg`, type: 'jpeg', quality: 82 });

  // Render links: a preset on an uploaded background, a signing key, and a link made for a post.
  const background = await srv.services.assets.uploadImage(
    principal,
    await readFile(`${SAMPLES}seeding.jpg`),
    {
      kind: 'background',
      name: 'Seedlings',
    },
  );
  await srv.services.presets.create(principal, {
    name: 'Journal',
    template: 'left',
    background: background.id,
  });
  await srv.services.renderUrls.createKey(principal, { name: 'Blog build' });
  await page.goto(`${srv.url}/links/keys`);
  await page.getByLabel('Title', { exact: true }).fill('Quiet harbours of the north');
  await page.getByRole('button', { name: 'Make link' }).click();
  await page.getByLabel("For the page's head").waitFor();
  await page.screenshot({
    path: `${DOCS}dashboard-render-links.jpg`,
    type: 'jpeg',
    quality: 82,
    fullPage: true,
  });

  // Members (docs/workspaces.md): a colleague who joined as an editor, a client invited as a viewer.
  await srv.services.accounts.setTier('ada@example.com', 'agency');
  const ada = await srv.services.accounts.actAs('ada@example.com');
  await srv.services.workspaces.invite(ada, ada.workspace.id, { email: 'grace@example.com', role: 'editor' });
  const invitation = await srv.mailTo('grace@example.com', /token=(inv_\w+)/);
  const grace = await srv.services.accounts.createUser({
    email: 'grace@example.com',
    displayName: 'Grace Hopper',
    tier: 'free',
  });
  await srv.services.workspaces.accept(grace.user, /token=(inv_\w+)/.exec(invitation.text)?.[1] ?? '');
  await srv.services.workspaces.invite(ada, ada.workspace.id, {
    email: 'client@example.org',
    role: 'viewer',
  });
  await page.goto(`${srv.url}/settings/members`);
  await page.screenshot({ path: `${DOCS}dashboard-members.jpg`, type: 'jpeg', quality: 82, fullPage: true });

  // The consent page an assistant opens (OAuth for the MCP connector).
  const registered = (await (
    await fetch(`${srv.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Claude',
        redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
        token_endpoint_auth_method: 'none',
      }),
    })
  ).json()) as { client_id: string };
  const authorize = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'screenshot',
    resource: `${srv.url}/mcp`,
  });
  await page.goto(`${srv.url}/authorize?${authorize.toString()}`);
  await page.screenshot({ path: `${DOCS}dashboard-consent.jpg`, type: 'jpeg', quality: 82 });
  process.stdout.write(
    `wrote ${DOCS}dashboard-{overview,playground,tokens,render-links,members,consent}.jpg\n`,
  );
  await billingScreenshots();
} finally {
  await browser.close();
  await srv.close();
}

/**
 * The Billing page before and after buying Pro (docs/billing.md), on a server whose Stripe is
 * stripe-mock; the purchase's event is the script's own, signed as Stripe signs them.
 */
async function billingScreenshots() {
  const mock = await startStripeMock();
  if (!mock) throw new Error('stripe-mock is needed for the Billing screenshots (.ci/run builds it)');
  const billed = await startTestServer({ env: BILLING_ENV(mock.url) });
  try {
    const { page, session } = await signedInPage(browser, billed, 'ada');
    const signedIn = await billed.services.sessions.authenticate(session);
    if (!signedIn) throw new Error('not signed in');
    const { workspace } = signedIn.principal;
    for (let i = 0; i < 10; i++) await billed.services.ledger.charge(workspace);
    await page.setViewportSize({ width: 1280, height: 640 });
    await page.goto(`${billed.url}/settings/billing`);
    await page.screenshot({ path: `${DOCS}billing-before.jpg`, type: 'jpeg', quality: 82 });
    const sub = `sub_${workspace.id}`;
    await deliver(
      billed.base,
      stripeEvent('customer.subscription.created', subscription(sub, workspace.id, 'active')),
    );
    await page.goto(`${billed.url}/settings/billing`);
    await page.screenshot({ path: `${DOCS}billing-after.jpg`, type: 'jpeg', quality: 82 });
    process.stdout.write(`wrote ${DOCS}billing-{before,after}.jpg\n`);
  } finally {
    await billed.close();
    await mock.stop();
  }
}
