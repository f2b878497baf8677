import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import Fastify from "fastify";
import { registerRequestLog } from "../../src/http/hooks/request-log.ts";

/** A fastify app logging JSON lines at `level` into the returned array, with one route that logs at error. */
async function appLogging(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split("\n")) if (line !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const app = Fastify({ logger: { level, stream } });
  registerRequestLog(app);
  app.get("/quiet", (_request, reply) => {
    reply.send("ok");
  });
  app.get("/loud", (request, reply) => {
    request.log.info("an info line");
    request.log.error({ detail: 1 }, "an error line");
    reply.send("ok");
  });
  await app.ready();
  return { app, lines };
}

test("at info, every request gets its line, with its request id", async () => {
  const { app, lines } = await appLogging("info");
  await app.inject({ url: "/quiet" });
  const line = lines.find((entry) => entry.msg === "request");
  assert.deepEqual(
    { method: line?.method, route: line?.route, status: line?.status, hasId: typeof line?.reqId === "string" },
    { method: "GET", route: "/quiet", status: 200, hasId: true },
  );
  await app.close();
});

test("at warn, no request line, but a request's own errors are logged with its request id", async () => {
  const { app, lines } = await appLogging("warn");
  await app.inject({ url: "/quiet" });
  await app.inject({ url: "/loud" });
  assert.deepEqual(
    lines.map((entry) => ({ msg: entry.msg, level: entry.level, detail: entry.detail, hasId: typeof entry.reqId === "string" })),
    [{ msg: "an error line", level: 50, detail: 1, hasId: true }],
  );
  await app.close();
});
