/**
 * Writes the table of docs/configuration.md from src/config.ts's CONFIG_TABLE, between its
 * `<!-- config-table -->` markers: `npx tsx scripts/configuration-docs.ts` after changing a
 * variable (test/system/configuration.test.ts fails until the two agree).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { configurationTable } from '../test/support/configuration.js';

const FILE = new URL('../docs/configuration.md', import.meta.url);
const page = readFileSync(FILE, 'utf8');
const [before, rest] = page.split('<!-- config-table -->\n');
const after = rest?.split('<!-- /config-table -->')[1];
if (before === undefined || after === undefined)
  throw new Error('docs/configuration.md has no <!-- config-table --> … <!-- /config-table --> markers');
const written = `${before}<!-- config-table -->\n${configurationTable()}<!-- /config-table -->${after}`;
writeFileSync(FILE, await format(written, { filepath: FILE.pathname }));
console.log('wrote docs/configuration.md');
