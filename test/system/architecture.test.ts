/**
 * The layering, checked on the import statements of src/ (docs/architecture.md): the domain knows
 * no framework or database; the edges (REST, MCP, the dashboard) reach storage only through the
 * domain's use cases and never import each other, sharing what they have in common through
 * src/http; the renderer imports the design vocabulary, not the request schemas; every error code
 * has its HTTP answer; only the command line starts the server; no hand-written file passes 600
 * lines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/kernel/errors.js';
import { HTTP_ERRORS } from '../../src/http/errors.js';
import { ROOT } from '../support/process.js';

const SRC = path.join(ROOT, 'src');

interface Module {
  file: string;
  text: string;
  /** Module specifiers; relative ones as paths under src/ (`../storage/index.js` → `storage/index.js`). */
  specifiers: string[];
  /** The specifiers of `import type` statements only. */
  typeOnly: string[];
}

/** Every .ts file under src/, relative to it, with the module specifiers it imports. */
const modules: Module[] = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((file) => {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const resolve = (spec: string) =>
      spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : spec;
    const statements = [...text.matchAll(/^\s*(import|export)\b([^;]*?)from\s+'([^']+)'/gms)];
    const specifiers = statements.map((m) => resolve(m[3] as string));
    const typeOnly = statements
      .filter((m) => m[1] === 'import' && /^\s*type\b/.test(m[2] as string))
      .map((m) => resolve(m[3] as string));
    // Dynamic imports count too: `await import('../web/x.js')` is an import all the same.
    for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specifiers.push(resolve(m[1] as string));
    return { file, text, specifiers, typeOnly };
  });

const under = (dir: string) => modules.filter((m) => m.file.startsWith(`${dir}/`));
const EDGES = ['api', 'mcp', 'web'] as const;

/** The imports of `m` that reach into another edge than its own. */
function crossEdgeImports(m: Module): string[] {
  const own = m.file.split('/')[0];
  return m.specifiers.filter((s) => EDGES.some((edge) => edge !== own && s.startsWith(`${edge}/`)));
}

describe('layering of src/', () => {
  it('finds the modules it checks', () => {
    expect(under('domain').length).toBeGreaterThan(30);
    for (const dir of [...EDGES, 'http', 'domain/render', 'storage'])
      expect(under(dir).length).toBeGreaterThan(4);
  });

  it('no domain module imports express, the MCP SDK, mongodb, the S3 SDK, or an adapter', () => {
    for (const m of under('domain'))
      for (const s of m.specifiers)
        expect(s, m.file).not.toMatch(
          /^(express|@modelcontextprotocol\/|mongodb|@aws-sdk\/|busboy|pino-http)|^(storage|http|api|mcp|web)\//,
        );
  });

  it('no edge imports a storage adapter or touches the record or blob stores', () => {
    for (const m of [
      ...EDGES.flatMap(under),
      ...under('http'),
      ...modules.filter((x) => x.file === 'app.ts'),
    ]) {
      for (const s of m.specifiers)
        expect(s, m.file).not.toMatch(/^storage\/|^(mongodb|@aws-sdk\/|better-sqlite3)$/);
      expect(m.text, m.file).not.toMatch(/\b(RecordStore|BlobStore|\.blobs\b|\.store\b)/);
    }
  });

  it('no edge imports another edge, and the shared HTTP layer imports none', () => {
    for (const m of EDGES.flatMap(under)) expect(crossEdgeImports(m), m.file).toEqual([]);
    for (const m of under('http'))
      expect(
        m.specifiers.filter((s) => EDGES.some((edge) => s.startsWith(`${edge}/`))),
        m.file,
      ).toEqual([]);
  });

  it('the rule that finds an edge importing another edge finds one (a planted import)', () => {
    const planted: Module = {
      file: 'web/routes/planted.ts',
      text: '',
      specifiers: ['mcp/http.js', 'http/errors.js', 'domain/services.js'],
      typeOnly: [],
    };
    expect(crossEdgeImports(planted)).toEqual(['mcp/http.js']);
  });

  it('the renderer imports the design vocabulary for values, and the request schemas for types only', () => {
    for (const m of under('domain/render')) {
      const valueImports = m.specifiers.filter((s) => !m.typeOnly.includes(s));
      expect(valueImports, m.file).not.toContain('domain/schemas.js');
      for (const s of valueImports)
        expect(s, m.file).not.toMatch(/^domain\/(accounts|images|oauth|render-links|services)/);
    }
  });

  it('only the command line imports src/server.ts, and only src/app.ts mounts the edges', () => {
    expect(modules.filter((m) => m.specifiers.includes('server.js')).map((m) => m.file)).toEqual(['cli.ts']);
    const mounting = modules
      .filter((m) => !EDGES.some((edge) => m.file.startsWith(`${edge}/`)))
      .filter((m) => m.specifiers.some((s) => /^(api\/router|web\/index|mcp\/http)\.js$/.test(s)))
      .map((m) => m.file);
    expect(mounting).toEqual(['app.ts']);
  });
});

describe('one answer per error code', () => {
  it('HTTP_ERRORS has a row for exactly the codes of ERROR_CODES, each a 4xx or 5xx', () => {
    expect(Object.keys(HTTP_ERRORS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const answer = HTTP_ERRORS[code](Object.assign(new Error('m'), { code, name: 'TitlecardError' }));
      expect(answer.status, code).toBeGreaterThanOrEqual(400);
      expect(answer.status, code).toBeLessThan(600);
    }
  });
});

describe('files by noun', () => {
  /** Hand-written text files git tracks: not generated (.gitattributes), not data, not lock files. */
  const handWritten = () => {
    // Tracked and new files alike, so that a file is held to the rule before it is committed.
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((f) => f && existsSync(path.join(ROOT, f)));
    const attributes = execFileSync('git', ['check-attr', '-z', 'linguist-generated', '--stdin'], {
      cwd: ROOT,
      input: files.join('\0'),
      encoding: 'utf8',
    }).split('\0');
    const marked = new Set<string>();
    for (let i = 0; i + 2 < attributes.length; i += 3)
      if (attributes[i + 2] === 'true') marked.add(attributes[i] as string);
    return files.filter(
      (f) => /\.(ts|js|mjs|css|eta|sh|py)$/.test(f) && !marked.has(f) && !f.startsWith('test/reference/'),
    );
  };

  it('the generated client types are marked as generated', () => {
    expect(handWritten()).not.toContain('src/client/schema.ts');
  });

  it('no hand-written source file passes 600 lines', () => {
    const long = handWritten()
      .map((f) => ({ f, lines: readFileSync(path.join(ROOT, f), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 600);
    expect(long).toEqual([]);
  });
});
