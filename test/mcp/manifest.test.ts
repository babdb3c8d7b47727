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
  it("is valid against the registry's 2025-12-11 schema, and names the package, its version and its variables", async () => {
    const read = async (file: string) =>
      JSON.parse(await readFile(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
    const schema = await read('test/fixtures/mcp-registry/server.schema.json');
    const server = (await read('server.json')) as {
      $schema: string;
      name: string;
      version: string;
      packages: {
        registryType: string;
        identifier: string;
        version: string;
        environmentVariables: { name: string }[];
      }[];
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const valid = ajv.validate(schema, server);
    expect(ajv.errors ?? [], ajv.errorsText()).toEqual([]);
    expect(valid).toBe(true);
    expect(server.$schema).toBe(schema.$id);
    // The registry checks an npm package's mcpName against the entry's name.
    expect([server.name, server.version]).toEqual([pkg.mcpName, pkg.version]);
    const npm = server.packages.find((p) => p.registryType === 'npm');
    expect([npm?.identifier, npm?.version]).toEqual([pkg.name, pkg.version]);
    for (const { name } of npm?.environmentVariables ?? []) expect(Object.keys(CONFIG_TABLE)).toContain(name);

    const manifest = await read('manifest.json');
    expect(manifest.version).toBe(pkg.version);
  });
});
