import { request as httpRequest } from "node:http";
import { TEST_BASE_URL } from "./snapshot.ts";

/**
 * One JSON-RPC message POSTed to a server process's /mcp under BASE_URL's host (fetch cannot set
 * Host), as a 2025-06-18 client sends it; the answer's status and JSON body.
 */
export function postMcp(url: string, message: object): Promise<{ status: number; body: unknown }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, ...message });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: new URL(url).port,
        path: "/mcp",
        method: "POST",
        setHost: false,
        headers: {
          host: new URL(TEST_BASE_URL).host,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
