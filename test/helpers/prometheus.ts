import { type ChildProcess, spawn } from "node:child_process";
import { access, constants, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LogLines } from "./logs.ts";
import { freePort } from "./ports.ts";

/**
 * A real Prometheus (Debian's `prometheus` package) for the metrics test, started on 127.0.0.1
 * with a scrape configuration the test writes, and stopped by its process id. When it is not
 * installed the test is skipped with the reason, unless REQUIRE_FLEET_TESTS=1 (set by .ci/run).
 */

const CANDIDATES = ["/usr/bin/prometheus", "/usr/local/bin/prometheus"];

/** The prometheus binary, or why there is none. */
export async function findPrometheus(): Promise<{ path: string } | { path: null; reason: string }> {
  for (const path of CANDIDATES) {
    try {
      await access(path, constants.X_OK);
      return { path };
    } catch {}
  }
  return { path: null, reason: `no prometheus at ${CANDIDATES.join(" or ")} (Debian package prometheus)` };
}

/** True when a missing tool must fail the run instead of skipping the fleet tests. */
export function fleetToolsRequired(): boolean {
  return process.env.REQUIRE_FLEET_TESTS === "1";
}

export interface RunningPrometheus {
  url: string;
  /** Runs an instant PromQL query; the result's samples as [labels, value]. */
  query(promql: string): Promise<[Record<string, string>, number][]>;
  stop(): Promise<void>;
}

/** Starts Prometheus scraping `target` (host:port) every second, and resolves once it says it is ready. */
export async function startPrometheus(binary: string, workDir: string, target: string): Promise<RunningPrometheus> {
  const port = await freePort();
  const config = join(workDir, "prometheus.yml");
  await writeFile(
    config,
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: catalog\n    static_configs:\n      - targets: ["${target}"]\n`,
  );
  const child: ChildProcess = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(workDir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.format=json",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  // Prometheus logs to stderr, one JSON object per line.
  const logs = new LogLines();
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => logs.write(chunk));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await logs.waitFor("saying it is ready", (line) => line.msg === "Server is ready to receive web requests.");
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    stop,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await response.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      return body.data.result.map((sample) => [sample.metric, Number(sample.value[1])]);
    },
  };
}
