/**
 * One table of configuration (src/config.ts's CONFIG_TABLE): docs/configuration.md's table, the
 * `--help` text and the parsed configuration all come from it, and agree with it.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_TABLE, CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config.js';
import { documentedRows, tableRows } from '../support/configuration.js';

describe('the configuration table', () => {
  it('docs/configuration.md lists every variable, with the default and meaning of the table, and no other (npx tsx scripts/configuration-docs.ts writes it)', () => {
    expect(documentedRows()).toEqual(tableRows());
  });

  it('the comparison finds a variable missing from the docs', () => {
    const page = `<!-- config-table -->\n| Variable | Default | Meaning |\n| --- | --- | --- |\n${tableRows()
      .filter((r) => r[0] !== '`PORT`')
      .map((r) => `| ${r.join(' | ')} |`)
      .join('\n')}\n<!-- /config-table -->`;
    expect(documentedRows(page)).not.toEqual(tableRows());
    expect(documentedRows(page).map((r) => r[0])).not.toContain('`PORT`');
  });

  it('--help names every variable with its default', () => {
    expect(CONFIG_VARIABLES.map(([name]) => name)).toEqual(Object.keys(CONFIG_TABLE));
    expect(CONFIG_VARIABLES.find(([n]) => n === 'PORT')?.[1]).toBe(
      'TCP port, 0 to 65535 (0 picks a free port). Default: 3000.',
    );
    for (const [, text] of CONFIG_VARIABLES) expect(text).not.toMatch(/`|\]\(/);
  });

  it('each default the table shows is the one the schema applies', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      logLevel: 'info',
      renderQueue: 64,
      renderMaxWait: 30,
      siteRecheck: 3600,
      maxConnections: 1024,
      queue: 'store',
      queueLockSeconds: 30,
      generateOnWorkers: false,
      signUp: 'open',
    });
    expect(CONFIG_TABLE.PORT.default).toBe('`3000`');
    expect(CONFIG_TABLE.RENDER_QUEUE.default).toBe('`64`');
    expect(CONFIG_TABLE.SIGNUP.default).toBe('`open`');
  });

  it('a bad value is refused naming the variable, what was expected and what it is for', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid PORT="eighty": .*TCP port, 0 to 65535/);
  });
});
