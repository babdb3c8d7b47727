/**
 * The mock-ups of the link-preview check (docs/previews.md) for a good page, as a sheet
 * (docs/previews.jpg): a page served on 127.0.0.1 by this script with every tag right and a
 * Titlecard card as its image, checked through the service's own check, each platform's mock-up
 * drawn, two columns.
 *
 * Usage: npx tsx scripts/previews-sheet.ts [out.jpg]
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp, { type OverlayOptions } from 'sharp';
import { createProbeFetcher } from '../src/adapters/safe-fetch.js';
import { createServiceThrottles } from '../src/adapters/storage/throttle.js';
import { createLinkPreviews } from '../src/domain/link-previews/link-previews.js';
import { createRenderer, loadFontLibrary } from '../src/domain/render/index.js';
import { generateOptionsSchema } from '../src/domain/images/schemas.js';
import { createMemoryBlobStore } from '../test/support/memory-blobs.js';
import type { Principal } from '../src/domain/workspaces/roles.js';

const out = process.argv[2] ?? 'docs/previews.jpg';
const renderer = createRenderer(loadFontLibrary());
const card = await renderer.render(
  readFileSync('test/fixtures/photos/mate_RainDrops.jpg'),
  generateOptionsSchema.parse({
    title: 'What the rain left on the mate leaves',
    subtitle: 'Garden notes · 4 min read',
    fileFormat: 'jpeg',
  }),
);
const server = createServer((req, res) => {
  if (req.url === '/card.jpg') {
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(card.image);
    return;
  }
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  res.writeHead(200, { 'content-type': 'text/html' }).end(
    `<!doctype html><html><head><title>What the rain left on the mate leaves</title>
     <meta property="og:title" content="What the rain left on the mate leaves">
     <meta property="og:description" content="A short walk in the garden after the rain, and what the drops on the leaves showed of the light.">
     <meta property="og:image" content="${origin}/card.jpg"><meta property="og:image:width" content="1200">
     <meta property="og:image:height" content="630"><meta property="og:image:alt" content="Rain drops on mate leaves">
     <meta name="twitter:card" content="summary_large_image"></head><body></body></html>`,
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const blobs = createMemoryBlobStore();
const previews = createLinkPreviews({
  blobs,
  clock: { now: () => new Date() },
  fetch: createProbeFetcher({ allowAddresses: ['127.0.0.1'] }),
  throttle: createServiceThrottles().previewThrottle,
  inTurn: (account, work) => renderer.inTurn(account, work),
  publicUrl: 'http://localhost:3000',
});
const principal = { workspace: { id: 'wsp_sheet' }, scopes: new Set() } as unknown as Principal;
const report = await previews.check(principal, {
  url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/post`,
});
server.close();
const pngs = await Promise.all(
  report.platforms.map((p) => previews.mockup(principal, report.id, p.platform)),
);
const GAP = 16;
const sizes = await Promise.all(pngs.map(async (png) => (await sharp(png).metadata()).height ?? 0));
const composites: OverlayOptions[] = [];
const columns: [number, number] = [0, 0];
pngs.forEach((png, i) => {
  const column = columns[0] <= columns[1] ? 0 : 1;
  composites.push({ input: png, left: GAP + column * (560 + GAP), top: GAP + columns[column] });
  columns[column] = columns[column] + (sizes[i] as number) + GAP;
});
await sharp({
  create: {
    width: 2 * 560 + 3 * GAP,
    height: Math.max(...columns) + GAP,
    channels: 3,
    background: '#888888',
  },
})
  .composite(composites)
  .jpeg({ quality: 82 })
  .toFile(out);
console.log(
  `${out}: ${report.problems.length} problems; cards ${report.platforms.map((p) => `${p.platform} ${p.card}`).join(', ')}`,
);
process.exit(0);
