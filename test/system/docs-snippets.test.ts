/**
 * The shell commands of the README and docs/clients.md, run as a reader runs them, against a
 * running Titlecard: `npm start` on the port the README says how to choose, `npx titlecard users
 * create`, and every curl command, in order.
 *
 * What a reader fills in is filled in here, and nothing else changes: the test server's address in
 * place of `https://cards.example.com` and `http://localhost:3000`, an API token in `$TOKEN`, a
 * photo at `photo.jpg`, and the ids the earlier commands made in place of `img_…` and `tok_…`.
 * Not run: `npm install` and `npm test` (CI runs them in a plain clone), and `claude mcp add`
 * (Claude Code's command; test/mcp runs the connector).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS_DIR } from '../support/photos.js';
import { ROOT, spawnServer, type ServerProcess } from '../support/process.js';

const run = promisify(execFile);

/** The shell commands of a Markdown page's ```sh blocks, a continued line joined, comments cut. */
async function shellCommands(file: string): Promise<string[]> {
  const markdown = await readFile(path.join(ROOT, file), 'utf8');
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] as string).replace(/\\\n\s*/g, '').split('\n'))
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter(Boolean);
}

/** The commands run here: curl, `users create`, and `npm start` (as `npm install && npm start`). */
const RUN = /^(curl |npx titlecard users create |npm install && npm start$)/;
/** The commands not run here, for the reasons in this module's header. */
const NOT_RUN = /^(npm test$|claude mcp add |export TOKEN=tc_…$)/;

describe("the README's and docs/clients.md's commands", () => {
  let server: ServerProcess;
  let dir: string;
  let token = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-docs-'));
    await copyFile(path.join(PHOTOS_DIR, 'mate_RainDrops.jpg'), path.join(dir, 'photo.jpg'));
  });
  afterAll(async () => server?.stop());

  /** Runs `command` as a reader would in `dir`, with `$TOKEN` set; its stdout. */
  async function sh(command: string, env: Record<string, string> = {}): Promise<string> {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', command], {
      cwd: dir,
      env: {
        ...process.env,
        PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
        TOKEN: token,
        ...env,
      },
    });
    return stdout;
  }

  it('every command of the two pages is either run here or named as not run', async () => {
    const commands = [...(await shellCommands('README.md')), ...(await shellCommands('docs/clients.md'))];
    expect(commands.filter((c) => !RUN.test(c) && !NOT_RUN.test(c))).toEqual([]);
  });

  it("the README's start command serves on the port chosen as it says (PORT=…), and users create prints a first token", async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/`PORT=8080 npm start` chooses another port/);
    const commands = await shellCommands('README.md');
    expect(commands).toContain('npm install && npm start');
    // npm start itself, in this checkout (dist/ built by the tests' set-up), on a free port of its own.
    server = await spawnServer({ DATA_DIR: path.join(dir, 'data') }, { npmStart: true });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const create = commands.find((c) => c.startsWith('npx titlecard users create'));
    expect(create).toBeDefined();
    const printed = await sh(`cd ${JSON.stringify(ROOT)} && ${create}`, { DATA_DIR: path.join(dir, 'data') });
    token = /\btc_[0-9A-Za-z]{40}\b/.exec(printed)?.[0] ?? '';
    expect(token, printed).not.toBe('');
  });

  it('every curl command answers success, in order, on that server', async () => {
    expect(token).not.toBe('');
    const commands = [
      ...(await shellCommands('README.md')),
      ...(await shellCommands('docs/clients.md')),
    ].filter((c) => c.startsWith('curl '));
    expect(commands.length).toBeGreaterThanOrEqual(9);
    const ids: Record<string, string> = {};
    for (const written of commands) {
      const command = written
        .replaceAll('https://cards.example.com', server.url)
        .replaceAll('http://localhost:3000', server.url)
        .replace(/\bimg_…/g, ids.img ?? 'img_…')
        .replace(/\btok_…/g, ids.tok ?? 'tok_…');
      expect(command, written).not.toContain('…');
      const answer = JSON.parse(await sh(command)) as { success: boolean; data?: { id?: string } };
      expect(answer.success, `${written}\n${JSON.stringify(answer)}`).toBe(true);
      if (/\/generate$/.test(command) && answer.data?.id) ids.img = answer.data.id;
      if (/-d '\{"name"/.test(command) && answer.data?.id) ids.tok = answer.data.id;
    }
    expect(ids.img).toMatch(/^img_/);
    expect(ids.tok).toMatch(/^tok_/);
  });
});
