/**
 * The docs are true where a reader follows them: every relative link of every Markdown file in the
 * repository resolves to a file of the repository, and a link's `#anchor` to a heading of its page
 * (GitHub's slugs); the clients' READMEs, which travel inside their packages, link only to files
 * that travel with them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import GithubSlugger from 'github-slugger';
import { marked, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';

/** The Markdown files git tracks (and new ones it does not ignore). */
const markdownFiles = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'],
  {
    cwd: ROOT,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((f) => f && existsSync(path.join(ROOT, f)));

/** Every link and image target of a Markdown document, code spans and blocks left out. */
function targetsOf(markdown: string): string[] {
  const targets: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-floating-promises -- a synchronous callback: no promise is made
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type === 'link' || token.type === 'image') targets.push(token.href);
  });
  return targets;
}

/** The anchors of a Markdown document's headings, as GitHub makes them. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  // eslint-disable-next-line @typescript-eslint/no-floating-promises -- a synchronous callback: no promise is made
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type === 'heading') anchors.add(slugger.slug(token.text.replace(/`/g, '')));
  });
  return anchors;
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//');

/** What is wrong with the relative links of `file`, one line each; none when all resolve. */
function brokenLinks(file: string, within: string = ROOT): string[] {
  const markdown = readFileSync(path.join(ROOT, file), 'utf8');
  const broken: string[] = [];
  for (const target of targetsOf(markdown).filter(isRelative)) {
    const [pathPart = '', anchor] = decodeURI(target).split('#');
    const resolved = pathPart
      ? path.resolve(path.dirname(path.join(ROOT, file)), pathPart)
      : path.join(ROOT, file);
    if (!resolved.startsWith(path.resolve(within) + path.sep) && resolved !== path.resolve(within)) {
      broken.push(`${target}: outside ${path.relative(ROOT, within) || 'the repository'}`);
      continue;
    }
    if (!existsSync(resolved)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md')) {
      if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
        broken.push(`${target}: no heading #${anchor}`);
    }
  }
  return broken;
}

describe('links in the docs', () => {
  it('finds the Markdown files to check', () => {
    expect(markdownFiles).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md', 'clients/python/README.md']),
    );
  });

  it.each(markdownFiles)('every relative link of %s resolves, its anchor included', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it.each(['clients/typescript', 'clients/python'])(
    "the README of %s links only to files its package carries (it is the package's front page)",
    (dir) => {
      expect(brokenLinks(`${dir}/README.md`, path.join(ROOT, dir))).toEqual([]);
    },
  );

  it("reads links as a renderer does (not in code spans) and makes GitHub's anchors", () => {
    expect(targetsOf('[a](docs/api.md#x) `[b](not-a-link.md)` ![c](d.png)')).toEqual([
      'docs/api.md#x',
      'd.png',
    ]);
    expect(anchorsOf('# The REST API\n## Choices where the contract says "not shown"\n## `GET /x`')).toEqual(
      new Set(['the-rest-api', 'choices-where-the-contract-says-not-shown', 'get-x']),
    );
  });
});
