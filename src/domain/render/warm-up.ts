/** Throw-away renders before the server listens, so that no request meets a cold render path. */
import sharp from 'sharp';
import type { Renderer, RenderOptions } from './types.js';

/**
 * The warm-up card's options: the defaults of docs/api.md#generate-options as `generateOptionsSchema` fills them in
 * (test/render/warm-up.test.ts holds them equal), with an emoji so that the colour font (25 MB)
 * loads at start-up rather than in a request, where its first use held the event loop for about
 * 45 ms. It adds about 20 MiB to an idle server's resident memory (VmRSS 2 s after start with and
 * without the emoji in this title, two runs each: 227 and 231 MiB against 205 and 212); its 20 MB
 * of SVG glyphs are never read from the file (sfnt.ts).
 */
export const WARM_UP_OPTIONS: RenderOptions = {
  title: 'Warm-up card ✨',
  subtitle: 'Titlecard',
  focus: 'auto',
  colorMode: 'auto',
  gradient: true,
  textShadow: true,
  font: 'arial',
  aspect: 'og',
  fileFormat: 'jpeg',
};

/**
 * Renders `renders` cards ({@link WARM_UP_OPTIONS}) on a plain synthetic background and throws them
 * away, so that the JavaScript of the render path is compiled before the first request: a process's
 * first renders ran their pixel loops unoptimised and held the event loop for up to 70 ms each
 * (`npm run bench`). `titlecard serve` calls it at start-up (about 0.3 s). The subject detector is
 * not started here: it starts with the first photo that needs it (about a second) and ends when
 * idle (subjects.ts), so that an idle server does not hold its memory.
 */
export async function warmUp(renderer: Renderer, renders = 4): Promise<void> {
  const photo = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#4a6b8a' } })
    .jpeg()
    .toBuffer();
  for (let i = 0; i < renders; i++) await renderer.render(photo, WARM_UP_OPTIONS);
}
