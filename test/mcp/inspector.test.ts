import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type McpTestServer, rest, startMcpServer } from "./helpers.ts";

/**
 * The official MCP Inspector's CLI against the running server, as a user would run it:
 *   npx mcp-inspector --cli http://localhost:3000/mcp --transport http --method tools/list
 */
const INSPECTOR = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector", import.meta.url));
const run = promisify(execFile);

let server: McpTestServer;

before(async () => {
  server = await startMcpServer();
});
after(async () => {
  await server.close();
});

async function inspector(...args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [INSPECTOR, "--cli", `${server.url}/mcp`, "--transport", "http", ...args], {
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

test("the MCP Inspector CLI lists the five tools", async () => {
  const result = (await inspector("--method", "tools/list")) as { tools: { name: string; annotations: { readOnlyHint: boolean } }[] };
  assert.deepEqual(
    result.tools.map((tool) => tool.name),
    ["search_businesses", "directory_facets", "get_business", "search_offerings", "get_offering"],
  );
  assert.ok(result.tools.every((tool) => tool.annotations.readOnlyHint));
});

test("the MCP Inspector CLI calls search_businesses and gets the REST page", async () => {
  const result = (await inspector("--method", "tools/call", "--tool-name", "search_businesses", "--tool-arg", "q=plumb")) as {
    structuredContent: unknown;
    isError?: boolean;
  };
  const expected = await rest(server, "/api/directory?q=plumb");
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, expected.body);
});
