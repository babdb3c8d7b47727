/**
 * Real Chromium for browser tests and screenshots: Debian's `chromium` (installed by .ci/run)
 * driven by playwright-core, and axe-core injected into pages for accessibility checks.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page, or on one frame of it (an MCP App's);
 * answers the serious and critical violations.
 */
export async function seriousViolations(page: Page | Frame): Promise<AxeViolation[]> {
  // The page's CSP forbids inline scripts: the browser context is created with bypassCSP for this.
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    // Runs in the page: `axe` and `document` are the page's globals.
    const { axe, document } = globalThis as unknown as {
      axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
      document: unknown;
    };
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A new account, confirmed and signed in, as a Chromium page on `srv` (bypassing CSP for axe),
 * whose confirmation dialogs are accepted; and the session cookie's secret.
 */
export async function signedInPage(
  browser: Browser,
  srv: { url: string; confirmEmail(email: string): Promise<void> },
  prefix: string,
): Promise<{ page: Page; session: string }> {
  const { WebClient } = await import('./web.js');
  const email = `${prefix}-${Date.now()}@example.com`;
  const web = new WebClient(srv.url);
  await web.signUp(email, 'a long enough password');
  await srv.confirmEmail(email);
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const [name, value] = (web.cookie ?? '').split('=');
  await context.addCookies([{ name: name ?? '', value: value ?? '', url: srv.url }]);
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialog.accept().catch(() => undefined);
  });
  return { page, session: value ?? '' };
}

/** Uploads `photo` and makes a preset `name` with it as background, through the dashboard's forms. */
export async function presetInDashboard(page: Page, url: string, photo: string, name: string): Promise<void> {
  await page.goto(`${url}/links/uploads`);
  await page.getByLabel('Image', { exact: true }).setInputFiles(photo);
  await page.getByLabel('Name', { exact: true }).first().fill('Dragonfly');
  await page.getByRole('button', { name: 'Upload image' }).click();
  await page.waitForURL('**/links/uploads?done=uploaded');
  await page.getByRole('link', { name: 'Presets', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page
    .getByLabel('Default background', { exact: true })
    .selectOption({ label: 'Dragonfly (background)' });
  await page.getByRole('button', { name: 'Create preset' }).click();
  await page.waitForURL('**/links/presets?done=preset-saved');
}
