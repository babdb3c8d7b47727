/**
 * The layering, checked on the import statements of src/ (README, "Layout"): the domain knows no
 * framework or database; the edges (REST, MCP, the dashboard, the HTTP composition) reach storage only through the
 * domain's use cases; only the command line starts the server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';

const SRC = path.join(ROOT, 'src');

/** Every .ts file under src/, relative to it, with the module specifiers it imports. */
const modules = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((file) => {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gms)].map((m) => {
      const spec = m[1] as string;
      // Relative specifiers as paths under src/ (`../storage/index.js` → `storage/index.js`).
      return spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : spec;
    });
    return { file, text, specifiers };
  });

const under = (dir: string) => modules.filter((m) => m.file.startsWith(`${dir}/`));

describe('layering of src/', () => {
  it('finds the modules it checks', () => {
    expect(under('domain').length).toBeGreaterThan(10);
    expect(under('api').length).toBeGreaterThan(5);
    expect(under('mcp').length).toBeGreaterThan(5);
    expect(under('web').length).toBeGreaterThan(4);
  });

  it('no domain module imports express, the MCP SDK, mongodb, the S3 SDK, or an adapter', () => {
    for (const m of under('domain'))
      for (const s of m.specifiers)
        expect(s, m.file).not.toMatch(
          /^(express|@modelcontextprotocol\/|mongodb|@aws-sdk\/|busboy|pino-http)|^storage\//,
        );
  });

  it('no edge imports a storage adapter or touches the record or blob stores', () => {
    const edges = [
      ...under('api'),
      ...under('mcp'),
      ...under('web'),
      ...modules.filter((m) => m.file === 'http.ts'),
    ];
    for (const m of edges) {
      for (const s of m.specifiers)
        expect(s, m.file).not.toMatch(/^storage\/|^(mongodb|@aws-sdk\/|better-sqlite3)$/);
      expect(m.text, m.file).not.toMatch(/\b(RecordStore|BlobStore|\.blobs\b|\.store\b)/);
    }
  });

  it('only the command line imports src/server.ts', () => {
    const importers = modules.filter((m) => m.specifiers.includes('server.js')).map((m) => m.file);
    expect(importers).toEqual(['cli.ts']);
  });
});
