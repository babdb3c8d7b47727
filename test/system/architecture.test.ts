/**
 * The layering, checked on the import statements of src/ (docs/architecture.md): the domain knows
 * no framework or database; the edges (REST, MCP, the dashboard, the command line, the worker) reach
 * storage only through the domain's use cases and never reach each other, directly or through any
 * chain of imports, sharing what they have in common through src/http and src/backend; only the
 * composition roots (app.ts mounts the HTTP edges, cli.ts starts the server, the worker and the
 * stdio connector) import another edge, and only its entry points; no two modules import each
 * other in a cycle, not even for types; the renderer is at the bottom (it imports nothing of the
 * domain but its floor, nobody reaches past its index.ts, only the card pipeline calls it, and only
 * it imports sharp); only the charge ledger writes usage counters; the domain names no driver's
 * errors; every error code has its HTTP answer; no hand-written file passes 600 lines. Each rule
 * is also run on a planted violation, which it must find.
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

/** The edge a module of src/ belongs to: the three HTTP edges' folders, the command line, the worker. */
export function edgeOf(file: string): string | undefined {
  const top = file.split('/')[0] as string;
  if ((EDGES as readonly string[]).includes(top)) return top;
  if (file === 'cli.ts' || file.startsWith('cli/')) return 'cli';
  if (file === 'worker.ts') return 'worker';
  return undefined;
}

/**
 * The imports across edges that composition roots make: app.ts mounts the HTTP edges; cli.ts
 * starts the server, the worker and the stdio connector through their entry points.
 */
const ROOT_IMPORTS: Record<string, RegExp> = {
  'app.ts': /^(api|mcp|web)\//,
  'server.ts': /^app\.ts$/,
  'cli.ts': /^(server|worker|mcp\/stdio)\.ts$/,
};

/** Value imports only (`import type` loads nothing), as files under src/: `x.js` → `x.ts`. */
type Graph = Map<string, string[]>;
function valueGraph(of: Module[]): Graph {
  const files = new Set(of.map((m) => m.file));
  return new Map(
    of.map((m) => [
      m.file,
      m.specifiers
        .filter((spec) => !m.typeOnly.includes(spec))
        .map((spec) => spec.replace(/\.js$/, '.ts'))
        .filter((f) => files.has(f)),
    ]),
  );
}

/** Every module `from` loads, directly or through others, but past a composition root's allowed import. */
function reach(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const file = todo.pop() as string;
    for (const next of graph.get(file) ?? []) {
      if (ROOT_IMPORTS[file]?.test(next) || seen.has(next)) continue;
      seen.add(next);
      todo.push(next);
    }
  }
  return seen;
}

/** What each edge module reaches of another edge: `from → reached` lines; none when the rule holds. */
function crossEdgeReach(graph: Graph): string[] {
  const found: string[] = [];
  for (const file of graph.keys()) {
    const own = edgeOf(file);
    if (!own) continue;
    for (const reached of reach(graph, file)) {
      const other = edgeOf(reached);
      if (other && other !== own) found.push(`${file} → ${reached}`);
    }
  }
  return found.sort();
}

/** The cycles of value imports (Tarjan's strongly connected components of more than one module, or a self-import). */
function valueCycles(graph: Graph): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, order.get(w) as number));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return cycles;
}

/** The imports of `m` that reach into another edge than its own. */
function crossEdgeImports(m: Module): string[] {
  const own = m.file.split('/')[0];
  return m.specifiers.filter((s) => EDGES.some((edge) => edge !== own && s.startsWith(`${edge}/`)));
}

describe('layering of src/', () => {
  it('finds the modules it checks', () => {
    expect(under('domain').length).toBeGreaterThan(30);
    for (const dir of [...EDGES, 'http', 'domain/render', 'adapters/storage'])
      expect(under(dir).length).toBeGreaterThan(4);
  });

  it('no domain module imports express, the MCP SDK, mongodb, the S3 SDK, or an adapter', () => {
    for (const m of under('domain'))
      for (const s of m.specifiers)
        expect(s, m.file).not.toMatch(
          /^(express|@modelcontextprotocol\/|mongodb|@aws-sdk\/|busboy|pino-http)|^(adapters|http|api|mcp|web)\//,
        );
  });

  it('no edge imports a storage adapter or touches the record or blob stores', () => {
    for (const m of [
      ...EDGES.flatMap(under),
      ...under('http'),
      ...modules.filter((x) => x.file === 'app.ts'),
    ]) {
      for (const s of m.specifiers)
        expect(s, m.file).not.toMatch(/^adapters\/storage\/|^(mongodb|@aws-sdk\/|better-sqlite3)$/);
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

  it('only the command line imports src/server.ts, and only src/app.ts mounts the edges', () => {
    expect(modules.filter((m) => m.specifiers.includes('server.js')).map((m) => m.file)).toEqual(['cli.ts']);
    const mounting = modules
      .filter((m) => !EDGES.some((edge) => m.file.startsWith(`${edge}/`)))
      .filter((m) => m.specifiers.some((s) => /^(api\/router|web\/index|mcp\/http)\.js$/.test(s)))
      .map((m) => m.file);
    expect(mounting).toEqual(['app.ts']);
  });
});

describe('the import graph, followed transitively', () => {
  const graph = valueGraph(modules);

  it('no edge (REST, MCP, dashboard, command line, worker) reaches another through any chain of imports', () => {
    expect(crossEdgeReach(graph)).toEqual([]);
  });

  it('finds a planted command-line import of the MCP edge, direct or through a module between', () => {
    const planted = new Map(graph);
    planted.set('cli/planted.ts', ['mcp/tools/results.ts']);
    expect(crossEdgeReach(planted)).toContain('cli/planted.ts → mcp/tools/results.ts');
    const between = new Map(graph);
    between.set('cli/templates.ts', [...(graph.get('cli/templates.ts') ?? []), 'planted-helper.ts']);
    between.set('planted-helper.ts', ['mcp/server.ts']);
    expect(crossEdgeReach(between)).toContain('cli/templates.ts → mcp/server.ts');
    // And cli.ts may start the connector through its entry point, not reach past it.
    const past = new Map(graph);
    past.set('cli.ts', [...(graph.get('cli.ts') ?? []), 'mcp/tools/index.ts']);
    expect(crossEdgeReach(past)).toContain('cli.ts → mcp/tools/index.ts');
  });

  it('the MCP tools and the backend port reach neither the runtime nor a storage adapter', () => {
    for (const m of [...under('mcp/tools'), ...under('backend')]) {
      const reached = [...reach(graph, m.file)].filter(
        (f) => f === 'runtime.ts' || f.startsWith('adapters/storage/'),
      );
      expect(reached, m.file).toEqual([]);
    }
  });

  it('no value-import cycles', () => {
    expect(valueCycles(graph)).toEqual([]);
  });

  it('finds a planted value cycle, and not a type-only one', () => {
    const planted = new Map(graph);
    planted.set('domain/images/images.ts', [
      ...(graph.get('domain/images/images.ts') ?? []),
      'domain/services.ts',
    ]);
    expect(
      valueCycles(planted).some(
        (c) => c.includes('domain/images/images.ts') && c.includes('domain/services.ts'),
      ),
    ).toBe(true);
    const typeOnly: Module[] = [
      { file: 'a.ts', text: '', specifiers: ['b.js'], typeOnly: [] },
      { file: 'b.ts', text: '', specifiers: ['a.js'], typeOnly: ['a.js'] },
    ];
    expect(valueCycles(valueGraph(typeOnly))).toEqual([]);
  });
});

/** Modules of bench/ and scripts/, their specifiers as paths under src/ (`../src/domain/x.js` → `domain/x.js`). */
const outside: Module[] = ['bench', 'scripts'].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => {
      const file = `${dir}/${f}`;
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gms)].map((m) => {
        const spec = m[1] as string;
        return spec.startsWith('.')
          ? path.normalize(path.join(dir, path.dirname(f), spec)).replace(/^src\//, '')
          : spec;
      });
      return { file, text, specifiers, typeOnly: [] };
    }),
);

/** Every import, `import type` included, as files under src/: the graph type-only cycles are found in. */
function importGraph(of: Module[]): Graph {
  const files = new Set(of.map((m) => m.file));
  return new Map(
    of.map((m) => [
      m.file,
      m.specifiers.map((spec) => spec.replace(/\.js$/, '.ts')).filter((f) => files.has(f)),
    ]),
  );
}

const RENDERER = 'domain/render/';
const inRenderer = (m: Module) => m.file.startsWith(RENDERER);

/** Imports that reach past the renderer's index.ts from outside it: `file → specifier`. */
function deepRendererImports(of: Module[]): string[] {
  return of
    .filter((m) => !inRenderer(m))
    .flatMap((m) =>
      m.specifiers
        .filter((s) => s.startsWith(RENDERER) && s !== `${RENDERER}index.js`)
        .map((s) => `${m.file} → ${s}`),
    );
}

/** The domain's floor, which the renderer may import: the vocabulary, the text rules and the kernel. */
const FLOOR = /^domain\/(design\.js|text\.js|kernel\/)/;
/** What the renderer imports of the rest of the domain (types too): `file → specifier`. */
function rendererImportsAbove(of: Module[]): string[] {
  return of
    .filter(inRenderer)
    .flatMap((m) =>
      m.specifiers
        .filter((s) => s.startsWith('domain/') && !s.startsWith(RENDERER) && !FLOOR.test(s))
        .map((s) => `${m.file} → ${s}`),
    );
}

/** Modules that write or read the store's usage counters, but the ledger and the stores themselves. */
function usageCounterUsers(of: Module[]): string[] {
  const allowed = (f: string) =>
    f === 'domain/accounts/ledger.ts' || f === 'domain/kernel/ports.ts' || f.startsWith('adapters/storage/');
  return of
    .filter((m) => !allowed(m.file))
    .filter((m) =>
      /\bstore\.usage\b|\busage\.(tryCharge|tryChargeOnce|refund|settle|keyedBetween|get)\(|\bUsageRepository\b/.test(
        m.text,
      ),
    )
    .map((m) => m.file);
}

/**
 * Modules that call the renderer, but the card pipeline and the renderer's own decorator (the
 * stage timings of adapters/metrics.ts, itself a Renderer that the composition root hands on).
 */
function rendererCallers(of: Module[]): string[] {
  const allowed = new Set(['domain/images/pipeline.ts', 'adapters/metrics.ts']);
  return of
    .filter((m) => !inRenderer(m) && !allowed.has(m.file))
    .filter((m) => /\brenderer\.(render|display|layout)\(/.test(m.text))
    .map((m) => m.file);
}

/** Domain modules that hand a render to the workers themselves (a queue's `run`), but the card pipeline. */
const workerHandOvers = (of: Module[]) =>
  of
    .filter((m) => m.file.startsWith('domain/') && m.file !== 'domain/images/pipeline.ts')
    .filter((m) => /\b(queue|generationQueue)\.run\(/.test(m.text))
    .map((m) => m.file);

/** Modules outside the renderer that import sharp. */
const sharpImporters = (of: Module[]) =>
  of.filter((m) => !inRenderer(m) && m.specifiers.includes('sharp')).map((m) => m.file);

/** Domain modules that name a driver's errors (MongoDB's, the AWS SDK's, ioredis's). */
const driverErrorNames = (of: Module[]) =>
  of
    .filter((m) => m.file.startsWith('domain/'))
    .filter((m) =>
      /\bMongo\w*Error\b|\$metadata|MaxRetriesPerRequestError|\bioredis\b|\bSlowDown\b/.test(m.text),
    )
    .map((m) => m.file);

describe('one home per job (issue 50)', () => {
  const planted = (file: string, specifiers: string[], text = ''): Module => ({
    file,
    text,
    specifiers,
    typeOnly: [],
  });

  it('no import cycles, type-only ones included', () => {
    expect(valueCycles(importGraph(modules))).toEqual([]);
  });

  it('finds a planted cycle of type-only imports', () => {
    const pair = [
      planted('domain/images/a.ts', ['domain/images/b.js']),
      { ...planted('domain/images/b.ts', ['domain/images/a.js']), typeOnly: ['domain/images/a.js'] },
    ];
    expect(valueCycles(importGraph(pair))).toEqual([['domain/images/a.ts', 'domain/images/b.ts']]);
  });

  it('nothing outside the renderer reaches past its index.ts (src/, bench/, scripts/)', () => {
    expect(outside.length).toBeGreaterThan(10);
    expect(deepRendererImports([...modules, ...outside])).toEqual([]);
    expect(deepRendererImports([planted('domain/assets/x.ts', ['domain/render/photo/decode.js'])])).toEqual([
      'domain/assets/x.ts → domain/render/photo/decode.js',
    ]);
  });

  it('the renderer imports nothing of the domain but its floor (design.ts, text.ts, kernel/)', () => {
    expect(under('domain/render').length).toBeGreaterThan(25);
    expect(rendererImportsAbove(modules)).toEqual([]);
    expect(
      rendererImportsAbove([planted('domain/render/x.ts', ['domain/images/schemas.js', 'domain/design.js'])]),
    ).toEqual(['domain/render/x.ts → domain/images/schemas.js']);
  });

  it('only the charge ledger touches the usage counters', () => {
    expect(usageCounterUsers(modules)).toEqual([]);
    expect(
      usageCounterUsers([planted('domain/sites/x.ts', [], 'await store.usage.tryCharge(who, month, 1);')]),
    ).toEqual(['domain/sites/x.ts']);
  });

  it('only the card pipeline calls the renderer', () => {
    expect(rendererCallers(modules)).toEqual([]);
    expect(
      rendererCallers([planted('domain/render-links/x.ts', [], 'await renderer.render(input, options);')]),
    ).toEqual(['domain/render-links/x.ts']);
  });

  it('only the card pipeline hands renders to the workers', () => {
    expect(workerHandOvers(modules)).toEqual([]);
    expect(
      workerHandOvers([planted('domain/render-links/x.ts', [], 'await generationQueue.run(job, written);')]),
    ).toEqual(['domain/render-links/x.ts']);
  });

  it('only the renderer imports sharp', () => {
    expect(sharpImporters(modules)).toEqual([]);
    expect(sharpImporters([planted('domain/assets/x.ts', ['sharp'])])).toEqual(['domain/assets/x.ts']);
  });

  it("the domain names no driver's errors: each adapter reads its own", () => {
    expect(driverErrorNames(modules)).toEqual([]);
    expect(driverErrorNames([planted('domain/kernel/x.ts', [], "name === 'MongoNetworkError'")])).toEqual([
      'domain/kernel/x.ts',
    ]);
  });
});

describe('tests that share a worker', () => {
  it("no test file mocks a module: files share each worker's module cache (vitest.config.ts, isolate: false)", () => {
    const tests = readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(tests.length).toBeGreaterThan(50);
    const mocking = tests.filter((f) =>
      /\bvi\.(mock|doMock|unmock)\(/.test(readFileSync(path.join(ROOT, 'test', f), 'utf8')),
    );
    expect(mocking).toEqual([]);
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
