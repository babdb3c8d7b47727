/**
 * The dashboard's Templates page, in Chromium with axe: a built-in is duplicated, its JSON edited
 * with the refusal's path shown next to the editor, the variables filled and the live preview drawn, saved as a new version, exported and imported as a .json file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousViolations, signedInPage } from '../support/browser.js';
import { startTestServer } from '../support/server.js';

describe.skipIf(!hasChromium)('Templates in the dashboard, in Chromium', () => {
  it('duplicates a built-in, shows a bad layer by its path, previews with variables for free, saves, exports and imports; every page passes axe', async () => {
    const srv = await startTestServer();
    const browser = await launchChromium();
    try {
      const { page } = await signedInPage(browser, srv, 'templates');
      const accessible = async () => expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${srv.url}/overview`);
      await page.getByRole('link', { name: 'Templates', exact: true }).click();
      await page.waitForURL('**/templates');
      await accessible();
      await page.getByRole('button', { name: 'Duplicate Bottom left' }).click();
      await page.waitForURL('**/templates/tpl_*?done=created');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Bottom left copy');
      // The live preview draws the copy with the sample photo.
      const preview = page.locator('#preview');
      await preview.waitFor({ state: 'visible', timeout: 30_000 });
      await accessible();

      // A layer out of its canvas: the path and the constraint, next to the editor.
      const editor = page.getByLabel('Template (JSON)', { exact: true });
      const document = JSON.parse(await editor.inputValue()) as {
        name: string;
        variables: object;
        layers: Record<string, unknown>[];
      };
      document.layers[2] = { ...document.layers[2], box: { x: 0.5, y: 0, w: 0.9, h: 1 } };
      await editor.fill(JSON.stringify(document, null, 2));
      const problem = page.locator('#document-problem');
      await expect(
        problem.getByText('layers[2].box.w').waitFor({ timeout: 10_000 }),
      ).resolves.toBeUndefined();
      await expect(editor.getAttribute('aria-invalid')).resolves.toBe('true');

      // Fixed, with a badge of a variable of its own: the preview follows the variable.
      document.name = 'Badge';
      document.variables = { badge: { type: 'text', required: true } };
      document.layers[2] = { ...document.layers[2], box: { x: 0.05, y: 0, w: 0.72, h: 1 } };
      document.layers.splice(
        3,
        0,
        {
          type: 'rect',
          box: { x: 0.75, y: 0.06, w: 0.2, h: 0.12 },
          fill: '#FFCC00',
          radius: 0.5,
        },
        {
          type: 'text',
          content: '{{badge}}',
          box: { x: 0.75, y: 0.06, w: 0.2, h: 0.12 },
          color: 'auto',
          align: 'center',
          verticalAlign: 'center',
        },
      );
      await editor.fill(JSON.stringify(document, null, 2));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL('**/templates/tpl_*?done=saved');
      await expect(page.getByText('Saving makes version 3').count()).resolves.toBe(1);
      await page.getByLabel('badge', { exact: true }).fill('New');
      await page.getByText('Preview updated.').waitFor({ timeout: 30_000 });
      await expect(page.locator('#document-problem').isHidden()).resolves.toBe(true);
      // The badge's yellow is in the preview, at the top right.
      const shot = await preview.screenshot();
      const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = (Math.round(info.height * 0.08) * info.width + Math.round(info.width * 0.77)) * 3;
      expect([data[i], data[i + 1], data[i + 2]].map((v) => Math.round((v as number) / 32))).toEqual([
        8, 6, 0,
      ]);
      await accessible();
      await page.screenshot({
        path: path.join(os.tmpdir(), 'titlecard-template-editor.png'),
        fullPage: true,
      });

      // Export, then import the file back as another template.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Export .json' }).click(),
      ]);
      const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as { name: string };
      expect(exported.name).toBe('Badge');
      const file = path.join(os.tmpdir(), `template-${Date.now()}.json`);
      await writeFile(file, JSON.stringify({ ...exported, name: 'Imported badge' }));
      await page.goto(`${srv.url}/templates`);
      await page.getByLabel('Template file (.json)', { exact: true }).setInputFiles(file);
      await page.getByRole('button', { name: 'Import' }).click();
      await page.waitForURL('**/templates/tpl_*?done=created');
      await page.goto(`${srv.url}/templates`);
      await expect(page.getByRole('link', { name: 'Imported badge', exact: true }).count()).resolves.toBe(1);
      await accessible();
    } finally {
      await browser.close();
      await srv.close();
    }
  });

  it('a built-in is read-only in the editor, and still previews', async () => {
    const srv = await startTestServer();
    const browser = await launchChromium();
    try {
      const { page } = await signedInPage(browser, srv, 'templates-ro');
      await page.goto(`${srv.url}/templates/split`);
      await expect(
        page.getByLabel('Template (JSON)', { exact: true }).getAttribute('readonly'),
      ).resolves.toBe('');
      await expect(page.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
      await page.locator('#preview').waitFor({ state: 'visible', timeout: 30_000 });
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await browser.close();
      await srv.close();
    }
  });
});
