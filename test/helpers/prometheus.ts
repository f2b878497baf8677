import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { findTool, type ToolSearch } from "./fleet-tools.ts";
import { LogLines } from "./logs.ts";
import { freePort } from "./ports.ts";

/**
 * A real Prometheus (Debian's `prometheus` package) for the metrics test, started on 127.0.0.1
 * with a scrape configuration the test writes, and stopped by its process id (found and skipped
 * as test/helpers/fleet-tools.ts says).
 */

/** The prometheus executable (PROMETHEUS_PATH, Debian's, or on PATH), or why none was found. */
export function findPrometheus(): Promise<ToolSearch> {
  return findTool("prometheus", "PROMETHEUS_PATH", "/usr/bin/prometheus");
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
  const exited = new Promise<void>((resolve) =>
    child.on("close", (code, signal) => {
      logs.end(`prometheus exited (${signal ?? code})`);
      resolve();
    }),
  );
  child.on("error", (error) => logs.end(`prometheus did not start: ${error.message}`));
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
