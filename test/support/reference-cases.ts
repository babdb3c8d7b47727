/**
 * The fixed matrix of reference images: templates × aspects, each font, each script, emoji, on a
 * synthetic background (so that nothing but Titlecard decides the pixels). Rendered at 480 px wide.
 * `npx tsx scripts/reference-images.ts` regenerates test/reference/*.png after an intended change.
 */
import sharp from 'sharp';
import type { Renderer } from '../../src/domain/render/index.js';
import { generateOptionsSchema, type GenerateOptionsInput } from '../../src/domain/images/schemas.js';
import { FONT_NAMES } from '../../src/domain/design.js';
import { SCRIPT_SAMPLES } from './samples.js';

export const REFERENCE_WIDTH = 480;
export const REFERENCE_DIR = new URL('../reference/', import.meta.url);

export interface ReferenceCase {
  name: string;
  options: GenerateOptionsInput;
}

export function referenceCases(): ReferenceCase[] {
  const cases: ReferenceCase[] = [];
  for (const template of ['bottom-left', 'left', 'right', 'split'] as const)
    for (const aspect of ['og', 'square', 'portrait'] as const)
      cases.push({
        name: `template-${template}-${aspect}`,
        options: {
          title: 'A calm title over any photograph',
          subtitle: 'Subtitle · 5 min read',
          template,
          aspect,
        },
      });
  for (const font of FONT_NAMES)
    cases.push({
      name: `font-${font}`,
      options: { title: 'Hamburgefonstiv 0123', subtitle: 'Quick brown fox', font },
    });
  for (const [script, title] of Object.entries(SCRIPT_SAMPLES))
    cases.push({
      name: `script-${script}`,
      options: { title, template: script === 'arabic' || script === 'hebrew' ? 'right' : 'bottom-left' },
    });
  return cases;
}

/** A smooth two-axis colour ramp, 1600 × 1000: exercises the gradient and the contrast choice. */
export async function referenceBackground(): Promise<Buffer> {
  const width = 1600;
  const height = 1000;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = Math.round(40 + (180 * x) / width);
      raw[i + 1] = Math.round(90 + (120 * y) / height);
      raw[i + 2] = Math.round(200 - (120 * x) / width);
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Renders a case and scales it to {@link REFERENCE_WIDTH}: RGBA raw pixels and a PNG. */
export async function renderCase(renderer: Renderer, background: Buffer, c: ReferenceCase) {
  const out = await renderer.render(
    background,
    generateOptionsSchema.parse({ ...c.options, fileFormat: 'png' }),
  );
  const scaled = sharp(out.image).resize(REFERENCE_WIDTH).ensureAlpha();
  const { data, info } = await scaled.clone().raw().toBuffer({ resolveWithObject: true });
  return {
    rgba: data,
    width: info.width,
    height: info.height,
    png: await scaled.png({ compressionLevel: 9 }).toBuffer(),
  };
}
