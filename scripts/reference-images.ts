/**
 * Regenerates the reference images of test/render/reference.test.ts after an intended change of the
 * rendering. Look at the new images before committing them.
 *
 * Usage: npx tsx scripts/reference-images.ts [name …]   (all, or only the named cases, e.g. script-korean)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadFontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import {
  REFERENCE_DIR,
  referenceBackground,
  referenceCases,
  renderCase,
} from '../test/support/reference-cases.js';

const renderer = createRenderer(loadFontLibrary());
const background = await referenceBackground();
mkdirSync(REFERENCE_DIR, { recursive: true });
const only = process.argv.slice(2);
for (const c of referenceCases().filter((r) => only.length === 0 || only.includes(r.name))) {
  const { png } = await renderCase(renderer, background, c);
  writeFileSync(new URL(`${c.name}.png`, REFERENCE_DIR), png);
  console.log(`${c.name}.png ${png.length} bytes`);
}
