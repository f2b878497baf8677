import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { TOOL_LIST } from "../src/mcp/tools.ts";
import { keepingCurrentExample } from "../src/render/api-docs.ts";
import { serveContent } from "./helpers/server.ts";

/** What /docs/api and llms.txt say of the MCP versions, written out here so that a change of the served versions shows. */
const MCP_VERSIONS =
  "Protocol revision 2026-07-28 (stateless, no handshake: every request carries its version, client info and capabilities in params._meta, with the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; server/discover lists every version served) and the 2025 versions 2025-11-25, 2025-06-18 and 2025-03-26 (after an initialize handshake).";

import { FIXTURES, TEST_BASE_URL } from "./helpers/snapshot.ts";

/**
 * The documentation states what the interface really takes: every tool's documented arguments
 * are exactly its input schema's properties (required ones marked where the table marks them),
 * wherever a table of tools is written.
 */

interface ToolRow {
  name: string;
  arguments: string[];
  required: string[];
  cells: string[];
}

/** The rows of the Markdown table whose header's first cell is `header` (case-insensitive). */
function tableRows(markdown: string, header: string): string[][] {
  const cellsOf = (line: string) =>
    line
      .trim()
      .slice(1, -1)
      .split("|")
      .map((cell) => cell.trim());
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith("|") && cellsOf(line)[0]?.toLowerCase() === header.toLowerCase());
  assert.ok(start >= 0, `no table headed "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(cellsOf(line));
  }
  return rows;
}

function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
}

/** The tool table: the first column names the tool, the second lists its arguments as code spans. */
function toolRows(markdown: string, header: string): ToolRow[] {
  return tableRows(markdown, header).map((cells) => ({
    name: codeSpans(cells[0] ?? "")[0] ?? "",
    arguments: codeSpans(cells[1] ?? ""),
    required: [...(cells[1] ?? "").matchAll(/`([^`]+)` \(required\)/g)].map((match) => match[1] ?? ""),
    cells,
  }));
}

const schemaArguments = Object.fromEntries(
  TOOL_LIST.tools.map((tool) => [
    tool.name,
    { arguments: Object.keys(tool.inputSchema.properties ?? {}), required: tool.inputSchema.required ?? [] },
  ]),
);

function assertDocumentsEveryTool(rows: ToolRow[], where: string, { marksRequired }: { marksRequired: boolean }): void {
  assert.deepEqual(
    rows.map((row) => row.name),
    TOOL_LIST.tools.map((tool) => tool.name),
    `${where}: the tools listed`,
  );
  for (const row of rows) {
    assert.deepEqual(row.arguments, schemaArguments[row.name]?.arguments, `${where}: the arguments of ${row.name}`);
    if (marksRequired)
      assert.deepEqual(row.required, schemaArguments[row.name]?.required, `${where}: the required arguments of ${row.name}`);
  }
}

describe("documentation generated from the route table and the tools' definitions", () => {
  const served = serveContent(`${FIXTURES}basic`);
  const text = async (path: string) => {
    const response = await fetch(`${served.current.url}${path}`);
    assert.equal(response.status, 200);
    return response.text();
  };

  test("search_offerings takes query and search_businesses the directory filters, as interface §6 lists them", () => {
    assert.deepEqual(schemaArguments.search_offerings, { arguments: ["query"], required: [] });
    assert.deepEqual(schemaArguments.search_businesses, { arguments: ["q", "location", "country", "limit", "offset"], required: [] });
    assert.deepEqual(schemaArguments.directory_facets, { arguments: ["q", "location", "country"], required: [] });
    assert.deepEqual(schemaArguments.get_business, { arguments: ["identifier"], required: ["identifier"] });
    assert.deepEqual(schemaArguments.get_offering, { arguments: ["slug"], required: ["slug"] });
  });

  for (const path of ["/docs/api/index.md", "/llms-full.txt"]) {
    test(`${path} documents exactly each tool's arguments, and the REST route it mirrors`, async () => {
      const rows = toolRows(await text(path), "Tool");
      assertDocumentsEveryTool(rows, path, { marksRequired: true });
      assert.deepEqual(
        rows.map((row) => row.cells),
        [
          ["`search_businesses`", "`q`, `location`, `country`, `limit`, `offset`", "`GET /api/directory`"],
          ["`directory_facets`", "`q`, `location`, `country`", "`GET /api/facets`"],
          ["`get_business`", "`identifier` (required)", "`GET /api/directory/{identifier}`"],
          ["`search_offerings`", "`query`", "`GET /api/offerings`"],
          ["`get_offering`", "`slug` (required)", "`GET /api/offerings/{slug}`"],
        ],
      );
    });
  }

  test("/docs/api lists the REST routes, the directory parameters, the MCP versions, limit and resources", async () => {
    const markdown = await text("/docs/api/index.md");
    assert.deepEqual(tableRows(markdown, "Method and path"), [
      ["`GET /api/directory`", "Search businesses"],
      ["`GET /api/facets`", "Count what a search matches"],
      ["`GET /api/directory/{identifier}`", "Read a business"],
      ["`GET /api/changes`", "What changed since a release"],
      ["`GET /api/offerings`", "List or search offerings"],
      ["`GET /api/offerings/{slug}`", "Read one offering"],
    ]);
    assert.deepEqual(
      tableRows(markdown, "Parameter").map(([name]) => name),
      ["`q`", "`location`", "`country`", "`limit`", "`offset`"],
    );
    assert.ok(markdown.includes(`one JSON-RPC message per request, at most 32 KiB. ${MCP_VERSIONS}`));
    assert.ok(markdown.includes(`Its server card (experimental, SEP-2127 draft) is at \`${TEST_BASE_URL}/mcp/server-card\` (JSON).`));
    const base = TEST_BASE_URL;
    assert.ok(
      markdown.includes(
        `Resources, each at its public URL: [llms.txt](${base}/llms.txt), [llms-full.txt](${base}/llms-full.txt), offerings.json (\`${base}/api/offerings\`), every offering guide in Markdown, [this documentation](${base}/docs/api/index.md), [openapi.json](${base}/openapi.json).`,
      ),
    );
  });

  test("llms.txt names every tool, the MCP versions served and the server card", async () => {
    const llms = await text("/llms.txt");
    assert.ok(
      llms.includes(
        `- [MCP endpoint](${TEST_BASE_URL}/docs/api/index.md#mcp-endpoint): how to call it. The endpoint is \`POST ${TEST_BASE_URL}/mcp\` (stateless Streamable HTTP with JSON responses; a GET is refused), its server card \`${TEST_BASE_URL}/mcp/server-card\`; read-only tools search_businesses, directory_facets, get_business, search_offerings, get_offering. ${MCP_VERSIONS}\n`,
      ),
    );
  });

  test("the README's MCP table documents exactly each tool's arguments", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    assertDocumentsEveryTool(toolRows(readme, "tool"), "README.md", { marksRequired: false });
  });

  test("the README and /docs/api show the same program that keeps a copy current with the change feed", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    assert.ok(readme.includes(`\`\`\`js\n${keepingCurrentExample("http://localhost:3000")}\n\`\`\`\n`));
    const markdown = await text("/docs/api/index.md");
    assert.ok(markdown.includes(`### Keeping a copy current`));
    assert.ok(markdown.includes(`\`\`\`js\n${keepingCurrentExample(TEST_BASE_URL)}\n\`\`\`\n`));
  });

  test("llms.txt says how to keep a copy of the directory current", async () => {
    assert.ok(
      (await text("/llms.txt")).includes(
        `; to keep a copy current, \`${TEST_BASE_URL}/api/changes?since=<version>\` answers what changed since a release of \`${TEST_BASE_URL}/data/releases.json\`.\n`,
      ),
    );
  });
});
