import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sirv from "sirv";

export interface StaticHost {
  /** e.g. http://127.0.0.1:41234, without a trailing slash. */
  url: string;
  close: () => Promise<void>;
}

/**
 * A plain static file server on `dist` (sirv, with ETags), on 127.0.0.1 on a free port: no
 * fastify, no negotiation, just the files, and a 404 "not found" for anything else, as a static
 * host serves a built snapshot.
 */
export async function serveStatic(dist: string): Promise<StaticHost> {
  const files = sirv(dist, { dev: false, etag: true });
  const host = createServer((request, response) =>
    files(request, response, () => {
      response.statusCode = 404;
      response.end("not found");
    }),
  );
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(host.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => host.close(() => resolve())),
  };
}
