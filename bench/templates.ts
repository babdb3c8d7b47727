/**
 * A template's cost (issue 26): the blog template of docs/templates.md (seven layers: the photo, a
 * gradient, a pill, three text boxes and a round avatar) against the built-in `bottom-left` on the
 * same photos, in the renderer, interleaved, medians. The avatar is a 256 × 256 JPEG, the size an
 * avatar is uploaded at. The target: the template at most 1.3× the built-in.
 *
 *   npm run bench -- --templates [--photos a,b] [--formats jpeg] [--runs 5]
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { FontLibrary } from '../src/domain/render/index.js';
import { createRenderer } from '../src/domain/render/index.js';
import { warmUp } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import { fieldValues, parseTemplateDocument } from '../src/domain/render/index.js';
import type { Format } from './engines.js';
import { SUBTITLE, TITLE } from './engines.js';
import { median } from './stats.js';

/** The blog template exactly as issue 26 states it (docs/templates.md, "A template"). */
export const BLOG_TEMPLATE = {
  name: 'Blog with author',
  aspect: 'og',
  variables: {
    author: { type: 'text', required: true, maxLength: 60 },
    avatar: { type: 'image' },
    category: { type: 'text', default: 'Engineering' },
  },
  layers: [
    { type: 'image', source: 'background', fit: 'cover' },
    { type: 'gradient', direction: 'to-top', color: 'auto' },
    { type: 'rect', box: { x: 0.05, y: 0.06, w: 0.2, h: 0.08 }, fill: '#FFCC00', radius: 0.5 },
    {
      type: 'text',
      content: '{{category}}',
      box: { x: 0.05, y: 0.06, w: 0.2, h: 0.08 },
      color: '#111111',
      align: 'center',
      fontSize: { min: 14, max: 28 },
    },
    {
      type: 'text',
      content: '{{title}}',
      box: { x: 0.05, y: 0.2, w: 0.6, h: 0.45 },
      color: 'auto',
      font: 'inter',
      fontSize: { min: 28, max: 72 },
      maxLines: 3,
    },
    {
      type: 'image',
      source: '{{avatar}}',
      box: { x: 0.05, y: 0.74, w: 0.07, h: 0.13 },
      fit: 'cover',
      radius: 0.5,
    },
    { type: 'text', content: '{{author}}', box: { x: 0.14, y: 0.76, w: 0.4, h: 0.08 }, color: 'auto' },
  ],
};

/** Prints, per photo and format, the built-in's and the template's median render time and their ratio. */
export async function templateFigures(
  fonts: FontLibrary,
  photos: Map<string, Buffer>,
  formats: Format[],
  runs: number,
  print: (line: string) => void,
): Promise<void> {
  const renderer = createRenderer(fonts, { concurrency: 1 });
  await warmUp(renderer);
  const document = parseTemplateDocument(BLOG_TEMPLATE);
  const first = photos.values().next().value as Buffer;
  const avatar = await sharp(first).resize(256, 256).jpeg({ quality: 85 }).toBuffer();
  const design = {
    id: 'tpl_bench',
    document,
    values: fieldValues(document, { title: TITLE, subtitle: SUBTITLE, fields: { author: 'Ada Lovelace' } }),
    images: new Map([[5, avatar]]),
    fonts: new Map(),
  };
  print(
    `The blog template (7 layers) against the built-in bottom-left, one render at a time, ${runs} interleaved rounds after a warm-up; medians, ms.`,
  );
  print(
    `${'photo'.padEnd(36)}${'format'.padStart(7)}${'built-in'.padStart(10)}${'template'.padStart(10)}${'ratio'.padStart(8)}`,
  );
  const ratios: number[] = [];
  for (const fileFormat of formats)
    for (const [name, input] of photos) {
      const builtIn = generateOptionsSchema.parse({ title: TITLE, subtitle: SUBTITLE, fileFormat });
      const time = async (options: Parameters<typeof renderer.render>[1]) => {
        const started = performance.now();
        await renderer.render(input, options);
        return performance.now() - started;
      };
      const options = { ...builtIn, design };
      await time(builtIn);
      await time(options);
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < runs; i++) {
        a.push(await time(builtIn));
        b.push(await time(options));
      }
      const ratio = median(b) / median(a);
      ratios.push(ratio);
      print(
        `${name.padEnd(36)}${fileFormat.padStart(7)}${median(a).toFixed(1).padStart(10)}${median(b).toFixed(1).padStart(10)}${ratio.toFixed(2).padStart(8)}`,
      );
    }
  print(
    `Ratio, template over built-in: median ${median(ratios).toFixed(2)}, largest ${Math.max(...ratios).toFixed(2)} (target at most 1.30).`,
  );
}
