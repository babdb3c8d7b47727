/**
 * Generates the types of the typed API client (`src/client/schema.ts`) from the OpenAPI document the
 * server serves, with openapi-typescript. Run `npm run client` after changing a route or a schema;
 * test/client/client.test.ts fails while the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateClientSchema } from './client-schema.js';

const target = fileURLToPath(new URL('../src/client/schema.ts', import.meta.url));
writeFileSync(target, await generateClientSchema());
process.stdout.write(`wrote ${target}\n`);
