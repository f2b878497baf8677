import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stableHeaders } from "../helpers/server.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * Two replicas (src/server.ts processes) serving one dist/, as a load balancer or a shared cache
 * sees them: any replica may answer any request, so each must answer with the same bytes and
 * the same validators, and accept the other's ETag.
 */

/** A request: a path, and the Accept header when it matters. */
type Request = readonly [path: string, accept?: string];

/** Twenty answers across the REST API, the pages in HTML and Markdown, and the documents. */
const REQUESTS: readonly Request[] = [
  ["/api/directory?q=plumb"],
  ["/api/directory?q=plumb&location=leeds&limit=2"],
  ["/api/directory?country=GB&limit=3&offset=1"],
  ["/api/directory/leeds-plumbing-heating"],
  ["/api/directory/0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a05"],
  ["/api/offerings"],
  ["/api/offerings?q=quote"],
  ["/api/offerings/cost-guides"],
  ["/"],
  ["/businesses?q=plumb"],
  ["/businesses/leeds-plumbing-heating"],
  ["/businesses/leeds-plumbing-heating/index.md"],
  ["/offerings/cost-guides", "text/markdown"],
  ["/businesses/countries/gb/index.md"],
  ["/llms.txt"],
  ["/llms-full.txt"],
  ["/openapi.json"],
  ["/sitemap.xml"],
  ["/mcp/server-card"],
  ["/data/businesses.ndjson"],
];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

async function get(base: string, [path, accept]: Request, extra: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { headers: { ...(accept === undefined ? {} : { accept }), ...extra } });
  return { status: response.status, headers: stableHeaders(response), body: Buffer.from(await response.arrayBuffer()) };
}

describe("two replicas serving one snapshot", () => {
  let work: { path: string; remove: () => Promise<void> };
  let replicas: ServerProcess[];

  before(async () => {
    work = await tempDir("replicas-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    replicas = await Promise.all([startServerProcess(join(work.path, "dist")), startServerProcess(join(work.path, "dist"))]);
  });
  after(async () => {
    await Promise.all(replicas.map(stopServerProcess));
    await work.remove();
  });

  test("answer 20 requests with identical status, headers (but Date and Connection), ETag and bytes", async () => {
    for (const request of REQUESTS) {
      const [one, two] = await Promise.all(replicas.map((replica) => get(replica.url, request)));
      assert.ok(one !== undefined && two !== undefined);
      assert.equal(one.status, 200, `${request[0]}: ${one.body.toString("utf8", 0, 300)}`);
      assert.match(one.headers.etag ?? "", /^"[!#-~]+"$/, `${request[0]}: ETag`);
      assert.deepEqual(two.headers, one.headers, `${request[0]}: headers`);
      assert.ok(two.body.equals(one.body), `${request[0]}: bodies differ`);
    }
  });

  test("each accepts the other's ETag with a 304 and no body", async () => {
    for (const request of REQUESTS) {
      const [one, two] = replicas as [ServerProcess, ServerProcess];
      for (const [from, to] of [
        [one, two],
        [two, one],
      ] as const) {
        const tag = (await get(from.url, request)).headers.etag ?? "";
        const revalidated = await get(to.url, request, { "if-none-match": tag });
        assert.deepEqual(
          { status: revalidated.status, etag: revalidated.headers.etag, bytes: revalidated.body.length },
          { status: 304, etag: tag, bytes: 0 },
          `${request[0]} from ${from.url} to ${to.url}`,
        );
      }
    }
  });
});
