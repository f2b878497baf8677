import { raw } from "../mcp/helpers.ts";
import { TEST_BASE_URL } from "./snapshot.ts";

/**
 * One JSON-RPC message POSTed to a server process's /mcp under BASE_URL's host, as a 2025-06-18
 * client sends it (test/mcp/helpers.ts `raw`); the answer's status and JSON body.
 */
export async function postMcp(url: string, message: object): Promise<{ status: number; body: unknown }> {
  const headers = {
    host: new URL(TEST_BASE_URL).host,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  };
  const response = await raw({ port: Number(new URL(url).port) }, "POST", headers, JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }));
  return { status: response.status, body: JSON.parse(response.body) };
}
