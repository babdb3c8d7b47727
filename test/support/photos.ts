/**
 * The real photographs the tests, the benchmark and the docs' pictures use: seven downsized
 * wallpapers kept in the repository (`test/fixtures/photos`, with their licences and a README), so
 * that a plain clone has everything its tests read.
 *
 * The benchmark and the scripts may read the same photographs from a larger folder instead,
 * `TITLECARD_PHOTOS` (for example the full-size originals, up to 6028×3391). A file there is found
 * by the name's stem: `plasma_Path.jpg` finds `plasma_Path.jpg` or `plasma_Path_2560x1600.jpg`.
 * Tests always read the repository's folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's photographs (absolute path, ending in a separator). */
export const PHOTOS_DIR = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));

/** The folder the benchmark and the scripts read: `TITLECARD_PHOTOS`, else {@link PHOTOS_DIR}. */
export const BENCH_PHOTOS_DIR = process.env.TITLECARD_PHOTOS
  ? path.resolve(process.env.TITLECARD_PHOTOS) + path.sep
  : PHOTOS_DIR;

/** The seven photographs, by their names in the repository. */
export const PHOTO_FILES = [
  'Kleiber_by_Lukas_Baubkus.jpg',
  'seeding_by_Clements_Engelhardt.jpg',
  'Dragonfly_by_Bolly.jpg',
  'friends_by_Aitzol_Berasategi.jpg',
  'plasma_Path.jpg',
  'plasma_Canopee.png',
  'mate_RainDrops.jpg',
] as const;

export type PhotoFile = (typeof PHOTO_FILES)[number];

/**
 * The path of photograph `name` in `dir`: the file of that name, or else the one whose stem starts
 * with `name`'s stem and an underscore (a full-size original's name carries its size).
 * Throws an Error naming the folder when neither is there.
 */
export function photoPath(name: string, dir: string = PHOTOS_DIR): string {
  const files = readdirSync(dir);
  if (files.includes(name)) return path.join(dir, name);
  const stem = name.replace(/\.[a-z]+$/i, '');
  const found = files.find((f) => f.startsWith(`${stem}_`) && /\.(jpe?g|png|webp)$/i.test(f));
  if (!found) throw new Error(`No photograph ${name} (or ${stem}_….jpg) in ${dir}`);
  return path.join(dir, found);
}

const cache = new Map<string, Buffer>();

/** The bytes of photograph `name` of the repository's folder (cached per process). */
export function photo(name: PhotoFile): Buffer {
  let data = cache.get(name);
  if (!data) {
    data = readFileSync(photoPath(name));
    cache.set(name, data);
  }
  return data;
}
