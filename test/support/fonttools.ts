/**
 * Fonts crafted with a font library, fontTools (PyPI), as an attacker would make them: a venv with
 * fontTools is made on first use (python3 -m venv, pip install; about 10 s, kept in the system's
 * temporary folder, or in TITLECARD_FONTTOOLS_VENV), then test/support/fonts/crafted.py builds the
 * font.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './process.js';

const run = promisify(execFile);
const FONTTOOLS = 'fonttools==4.60.1';
const VENV = process.env.TITLECARD_FONTTOOLS_VENV ?? path.join(os.tmpdir(), 'titlecard-fonttools-4.60.1');
const PYTHON = path.join(VENV, 'bin', 'python');

let ready: Promise<void> | undefined;
function venv(): Promise<void> {
  ready ??= (async () => {
    if (
      existsSync(PYTHON) &&
      (await run(PYTHON, ['-c', 'import fontTools']).then(
        () => true,
        () => false,
      ))
    )
      return;
    await run('python3', ['-m', 'venv', VENV]);
    await run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', FONTTOOLS], {
      timeout: 300_000,
    });
  })();
  return ready;
}

type Variant = 'colr' | 'layers' | 'points' | 'fine';
const made = new Map<Variant, Promise<Buffer>>();

/** The font of `variant` (see crafted.py): `colr`, `layers`, `points` or `fine`; made once per process. */
export function craftedFont(variant: Variant): Promise<Buffer> {
  let font = made.get(variant);
  if (!font) {
    font = make(variant);
    made.set(variant, font);
  }
  return font;
}

async function make(variant: Variant): Promise<Buffer> {
  await venv();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-font-'));
  try {
    const out = path.join(dir, `${variant}.ttf`);
    await run(PYTHON, [path.join(ROOT, 'test/support/fonts/crafted.py'), out, variant]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
