import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { postMcp } from "../helpers/mcp-post.ts";
import { OtlpReceiver } from "../helpers/otlp-receiver.ts";
import { startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * Tracing costs nothing when it is off: the server process loads no OpenTelemetry module at all.
 * test/helpers/module-log.mjs records the URL of every module the process imports; the same
 * record taken with tracing on shows that it does see OpenTelemetry when it is there.
 */

const MODULE_LOG_HOOK = new URL("../helpers/module-log.mjs", import.meta.url).pathname;
/** The packages tracing brings, as they appear in a module's URL. */
const TRACING_PACKAGES = /\/node_modules\/(?:@opentelemetry|@fastify\/otel|import-in-the-middle|require-in-the-middle)\//;

/** The package a module's URL is in, or undefined for the project's own modules. */
function packageOf(url: string): string | undefined {
  const path = url.split("/node_modules/").at(-1);
  if (path === undefined || path === url) return undefined;
  const [scope, name] = path.split("/");
  return scope?.startsWith("@") ? `${scope}/${name}` : scope;
}

/** The tracing packages among `modules`, and the project's modules in src/tracing/. */
function summary(modules: string[]): { tracingPackages: string[]; tracingModules: string[] } {
  const packages = new Set(modules.filter((url) => TRACING_PACKAGES.test(url)).map(packageOf));
  return {
    tracingPackages: [...packages].filter((name) => name !== undefined).sort(),
    tracingModules: modules
      .filter((url) => url.includes("/src/tracing/"))
      .map((url) => url.slice(url.indexOf("/src/") + 1))
      .sort(),
  };
}

/**
 * Runs the server with `env` and the module record, makes a REST request and an MCP request that
 * names a trace in its _meta, stops it with SIGTERM, and answers the modules it imported.
 */
async function modulesOfARun(dist: string, logFile: string, env: Record<string, string>): Promise<string[]> {
  const server = await startServerProcess(dist, { NODE_OPTIONS: `--import=${MODULE_LOG_HOOK}`, MODULE_LOG: logFile, ...env });
  try {
    const rest = await fetch(`${server.url}/api/offerings`, {
      headers: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
    });
    assert.equal(rest.status, 200);
    await rest.arrayBuffer();
    const call = await postMcp(server.url, {
      method: "tools/call",
      params: {
        name: "search_businesses",
        arguments: { q: "plumb" },
        _meta: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
      },
    });
    assert.equal(call.status, 200);
    server.child.kill("SIGTERM");
    assert.equal(await server.exited, 0);
  } finally {
    await stopServerProcess(server);
  }
  return (await readFile(logFile, "utf8")).split("\n").filter((line) => line !== "");
}

describe("tracing off", () => {
  let work: { path: string; remove: () => Promise<void> };
  let dist: string;
  let receiver: OtlpReceiver;

  before(async () => {
    work = await tempDir("tracing-off-");
    dist = `${work.path}/dist`;
    await buildSnapshot(`${FIXTURES}basic`, dist);
    receiver = new OtlpReceiver();
    await receiver.listen();
  });

  after(async () => {
    await receiver.close();
    await work.remove();
  });

  test("without an OTLP endpoint the server imports no OpenTelemetry module and no tracing code", async () => {
    const modules = await modulesOfARun(dist, `${work.path}/unset.log`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: "",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
    });
    assert.ok(
      modules.some((url) => url.endsWith("/src/mcp/plugin.ts")),
      "the record holds the server's own modules",
    );
    assert.deepEqual(summary(modules), { tracingPackages: [], tracingModules: ["src/tracing/settings.ts"] });
  });

  test("with OTEL_SDK_DISABLED=true no span is sent to the endpoint and nothing of OpenTelemetry is loaded", async () => {
    const modules = await modulesOfARun(dist, `${work.path}/disabled.log`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SDK_DISABLED: "true",
    });
    // Exports happen before the process exits (the provider is shut down on SIGTERM), so none is still on its way.
    assert.deepEqual(receiver.requests, []);
    assert.deepEqual(summary(modules), { tracingPackages: [], tracingModules: ["src/tracing/settings.ts"] });
  });

  test("the module record sees OpenTelemetry when tracing is on", async () => {
    const modules = await modulesOfARun(dist, `${work.path}/on.log`, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    assert.deepEqual(summary(modules), {
      tracingPackages: [
        "@fastify/otel",
        "@opentelemetry/api",
        "@opentelemetry/exporter-trace-otlp-http",
        "@opentelemetry/resources",
        "@opentelemetry/sdk-trace-node",
        "@opentelemetry/semantic-conventions",
      ],
      tracingModules: ["src/tracing/mcp.ts", "src/tracing/settings.ts", "src/tracing/start.ts"],
    });
    assert.deepEqual(receiver.spans.map((span) => span.name).sort(), ["GET /api/offerings", "POST /mcp", "tools/call search_businesses"]);
  });
});
