/**
 * Titlecard's version: package.json's `version` (semver), read once. The MCP server's `serverInfo`,
 * `titlecard --version`, manifest.json and server.json all state it (test/mcp/manifest.test.ts).
 */
import { createRequire } from 'node:module';

// src/version.ts and dist/version.js both sit one level under the package's root.
const packageJson = createRequire(import.meta.url)('../package.json') as { version: string };

export const VERSION: string = packageJson.version;
