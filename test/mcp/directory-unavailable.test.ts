import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SNAPSHOT_FILES } from "../../src/snapshot/files.ts";
import { connectClient, type McpTestServer, rest, startMcpServer } from "./helpers.ts";

let server: McpTestServer;
let client: Client;

before(async () => {
  server = await startMcpServer({ prepare: (distDir) => rm(join(distDir, SNAPSHOT_FILES.businessesNdjson)) });
  ({ client } = await connectClient(server, "2025-11-25"));
});
after(async () => {
  await client.close();
  await server.close();
});

test("the directory tools answer directory_unavailable as an isError result with the REST 503 body", async () => {
  const search = await rest(server, "/api/directory?q=plumb");
  const read = await rest(server, "/api/directory/joes-handyman");
  assert.equal(search.status, 503);
  assert.equal(read.status, 503);
  for (const [name, args, expected] of [
    ["search_businesses", { q: "plumb" }, search.body],
    ["get_business", { identifier: "joes-handyman" }, read.body],
  ] as const) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.deepEqual(result.structuredContent, expected);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, "directory_unavailable");
  }
});

test("invalid arguments are still invalid while the directory is unavailable", async () => {
  const expected = await rest(server, "/api/directory?limit=0");
  assert.equal(expected.status, 400);
  const result = (await client.callTool({ name: "search_businesses", arguments: { limit: 0 } })) as CallToolResult;
  assert.equal(result.isError, true);
  assert.deepEqual(result.structuredContent, expected.body);
});

test("the catalog tools and the resources keep working while the directory is unavailable", async () => {
  const offerings = await rest(server, "/api/offerings");
  assert.equal(offerings.status, 200);
  const result = (await client.callTool({ name: "search_offerings", arguments: {} })) as CallToolResult;
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, offerings.body);
  const { resources } = await client.listResources();
  assert.ok(resources.some((resource) => resource.uri === `${server.baseUrl}/llms.txt`));
  const { contents } = await client.readResource({ uri: `${server.baseUrl}/api/offerings` });
  assert.deepEqual(JSON.parse((contents[0] as { text: string }).text), offerings.body);
});
