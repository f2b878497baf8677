/**
 * The benchmark's yardstick: a bare fastify route answering a constant 6 KB JSON body, started
 * as its own process on 127.0.0.1 (port from argv). Our routes are measured against it in the
 * same run, with the same load generator.
 */
import Fastify from "fastify";

const SIZE = 6 * 1024;
const port = Number(process.argv[2] ?? 0);
const item = { id: "00000000-0000-4000-8000-000000000000", name: "A constant listing", description: "x".repeat(400) };
const unpadded = JSON.stringify({ items: Array.from({ length: 8 }, () => item), pad: "" });
const body = JSON.stringify({ items: Array.from({ length: 8 }, () => item), pad: "x".repeat(SIZE - unpadded.length) });

const app = Fastify();
app.get("/", async (_request, reply) => reply.type("application/json; charset=utf-8").send(body));
await app.listen({ port, host: "127.0.0.1" });
console.log(`baseline listening with a ${body.length}-byte body`);
