/**
 * Real Chromium for browser tests and screenshots: Debian's `chromium` (installed by .ci/run)
 * driven by playwright-core, and axe-core injected into pages for accessibility checks.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/** Runs axe-core (WCAG 2.x A and AA rules) on the page; answers the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
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
