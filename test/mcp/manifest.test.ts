/**
 * Where hosts find the server. The MCPB desktop extension (manifest.json) lists exactly the tools the
 * server lists (`mcpb validate`, in `npm run check`, checks the manifest's form, not that it keeps up
 * with the server); server.json, for the MCP Registry, is valid against the registry's published
 * schema (test/fixtures/mcp-registry); both, and the server's own `serverInfo`, state the package's
 * version and name only variables Titlecard reads.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { CONFIG_TABLE } from '../../src/config.js';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { startTestServer } from '../support/server.js';

const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  mcpName: string;
  private: boolean;
  engines: { node: string };
};

describe('manifest.json', () => {
  it("lists every tool of the server's tools/list, and no other", async () => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, 'manifest.json'), 'utf8')) as {
      tools: { name: string; description: string }[];
    };
    const srv = await startTestServer();
    try {
      const { token } = await srv.createUser('pro');
      const client = new Client({ name: 'manifest-check', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const { tools } = await client.listTools();
      expect(client.getServerVersion()).toMatchObject({ name: 'titlecard', version: pkg.version });
      await client.close();
      expect(manifest.tools.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
      for (const t of manifest.tools) expect(t.description, t.name).not.toBe('');
    } finally {
      await srv.close();
    }
  });
});

describe('server.json (the MCP Registry)', () => {
  it("is valid against the registry's 2025-12-11 schema, names the version, and offers only what a person can run (issue 55, item 12)", async () => {
    const read = async (file: string) =>
      JSON.parse(await readFile(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
    const schema = await read('test/fixtures/mcp-registry/server.schema.json');
    const server = (await read('server.json')) as {
      $schema: string;
      name: string;
      version: string;
      packages?: { registryType: string; identifier: string }[];
      remotes: { type: string; url: string }[];
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const valid = ajv.validate(schema, server);
    expect(ajv.errors ?? [], ajv.errorsText()).toEqual([]);
    expect(valid).toBe(true);
    expect(server.$schema).toBe(schema.$id);
    // The registry checks an npm package's mcpName against the entry's name.
    expect([server.name, server.version]).toEqual([pkg.mcpName, pkg.version]);
    // The package is not published (package.json is private): no npm entry for `npx` to find.
    expect(pkg.private).toBe(true);
    expect(server.packages ?? []).toEqual([]);
    expect(server.remotes).toEqual([
      expect.objectContaining({ type: 'streamable-http', url: 'https://{host}/mcp' }),
    ]);

    const manifest = (await read('manifest.json')) as {
      version: string;
      compatibility: { runtimes: { node: string } };
      server: { mcp_config: { env: Record<string, string> } };
    };
    for (const name of Object.keys(manifest.server.mcp_config.env))
      expect(Object.keys(CONFIG_TABLE)).toContain(name);
    expect(manifest.version).toBe(pkg.version);
    // The Node.js it asks for is the package's (engines).
    expect(manifest.compatibility.runtimes.node).toBe(`${pkg.engines.node}.0`);
  });
});
