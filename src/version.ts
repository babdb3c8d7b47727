/**
 * Titlecard's version: package.json's `version` (semver), read once. The MCP server's `serverInfo`,
 * `titlecard --version`, manifest.json and server.json all state it (test/mcp/manifest.test.ts).
 */
import { createRequire } from 'node:module';

// src/version.ts and dist/version.js both sit one level under the package's root.
const packageJson = createRequire(import.meta.url)('../package.json') as {
  version: string;
  engines: { node: string };
};

export const VERSION: string = packageJson.version;

/** The oldest Node.js Titlecard runs on: package.json's `engines.node` (`>=22.18`), as [major, minor]. */
export const NODE_NEEDED = (/^>=(\d+)\.(\d+)$/.exec(packageJson.engines.node)?.slice(1).map(Number) ?? [
  22, 18,
]) as [number, number];

/**
 * Why this Node.js cannot run Titlecard, in words for the person who started it, or undefined when
 * it can: the SQLite driver is a native addon built for the Node.js of `npm install`, and the
 * subject detector's worker needs type stripping (22.18), so an older one failed with a line about
 * NODE_MODULE_VERSION instead of naming the version needed.
 */
export function nodeVersionProblem(version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = NODE_NEEDED;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `Titlecard needs Node.js ${needMajor}.${needMinor} or later (22 LTS or 24), but this is ${version}: install a newer Node.js, then run npm install again so that the SQLite driver is built for it`;
}
