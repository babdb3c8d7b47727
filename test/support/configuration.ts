/**
 * docs/configuration.md's table of environment variables, as src/config.ts's CONFIG_TABLE makes it
 * (scripts/configuration-docs.ts writes it), and as the page has it (the test compares the two).
 */
import { readFileSync } from 'node:fs';
import { CONFIG_TABLE } from '../../src/config.js';

/** One row: the variable's name, its default and what it does, as Markdown cell text. */
export type ConfigRow = [name: string, defaultValue: string, description: string];

/** The rows CONFIG_TABLE makes, in its order. */
export const tableRows = (): ConfigRow[] =>
  Object.entries(CONFIG_TABLE).map(([name, v]) => [`\`${name}\``, v.default, v.description]);

/** The Markdown table of {@link tableRows} (unaligned; prettier aligns it). */
export function configurationTable(): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  return (
    line(['Variable', 'Default', 'Meaning']) + line(['---', '---', '---']) + tableRows().map(line).join('')
  );
}

/** The rows of the table between the page's `<!-- config-table -->` markers, cells trimmed. */
export function documentedRows(
  page: string = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8'),
): ConfigRow[] {
  const table = page.split('<!-- config-table -->')[1]?.split('<!-- /config-table -->')[0] ?? '';
  return table
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map(
      (l) =>
        l
          .slice(1, -1)
          .split(' | ')
          .map((c) => c.trim()) as ConfigRow,
    );
}
