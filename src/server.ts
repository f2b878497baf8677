/** The entry point: config → snapshot → app → listen, and a graceful stop on signals. */
import cluster from "node:cluster";
import type { Server } from "node:http";
import { createServer, isIPv6 } from "node:net";
import closeWithGrace from "close-with-grace";
import { type Config, ConfigError, readConfig } from "./config.ts";
import { SnapshotError } from "./snapshot/load.ts";
import { LiveSnapshot, SNAPSHOT_BUILT_MESSAGE } from "./snapshot/reload.ts";
import type { Snapshot } from "./snapshot/types.ts";
import { tracingWanted } from "./tracing/settings.ts";

/** The signals that stop the server gracefully: SIGHUP too, which a closed terminal sends. */
const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] satisfies closeWithGrace.AllEvents[];

/**
 * Where the log goes: stdout, a line at a time when the server is idle, and the lines of one turn
 * of the event loop in one write when it is busy. Writing to a pipe is synchronous here, so a
 * request line written on its own cost its request a system call; a loaded server now writes
 * its lines together once its answers are sent. What is still queued is written before the
 * process exits.
 */
const logLines = {
  queued: [] as string[],
  write(line: string): void {
    if (this.queued.push(line) === 1) setImmediate(() => this.flush());
  },
  flush(): void {
    if (this.queued.length === 0) return;
    const lines = this.queued.join("");
    this.queued = [];
    process.stdout.write(lines);
  },
};
process.on("exit", () => logLines.flush());

async function main(config: Config, tracingOn: boolean): Promise<void> {
  // The snapshot's listing check starts its worker threads at once; the application's modules
  // load meanwhile instead of before. The snapshot is live: a rebuilt dist/ is served within about
  // a second of the build's swap (interface §3).
  // With no snapshot in DIST_DIR yet (a volume filled after start), the server starts anyway:
  // /readyz and every answer but /healthz are 503 until the first build lands.
  const opening = LiveSnapshot.openOrAwait(config.distDir, { listingsInMemoryBytes: config.listingsInMemoryBytes });
  opening.catch(() => {});
  const [{ buildApplication }, { AnswerCacheStats }, tracing] = await Promise.all([
    import("./application.ts"),
    import("./core/answer-cache.ts"),
    // OpenTelemetry is loaded only when spans are exported (src/tracing/settings.ts), and before fastify starts.
    tracingOn ? import("./tracing/start.ts").then(({ startTracing }) => startTracing()) : undefined,
  ]);
  // The app is built while the snapshot still loads; it serves once the snapshot is open.
  let live: LiveSnapshot | undefined;
  const served = { current: () => live?.current() ?? null };
  const answerStats = new AnswerCacheStats();
  // Loaded only when metrics are on: without METRICS_PORT nothing is counted, and prom-client is never loaded.
  const metrics = config.metricsPort === null ? undefined : new (await import("./metrics.ts")).Metrics(served, answerStats);
  const app = await buildApplication({
    served,
    config,
    answerStats,
    metrics,
    logger: { level: config.logLevel, stream: logLines },
    wrapMcpDispatch: tracing?.wrapMcpDispatch,
  });
  tracing?.logTo(app.log);
  live = await opening;

  const reportOnSnapshot = (snapshot: Snapshot) => {
    if (snapshot.directoryProblem !== null) {
      app.log.error(`directory unavailable, its endpoints answer 503: ${snapshot.directoryProblem}`);
    }
    if (snapshot.manifest.baseUrl !== config.baseUrl) {
      app.log.warn(
        `the snapshot was built for ${snapshot.manifest.baseUrl}, but BASE_URL is ${config.baseUrl}; rebuild with the same BASE_URL.`,
      );
    }
  };
  const first = live.current();
  if (first !== null) reportOnSnapshot(first.snapshot);
  else app.log.warn(`no snapshot in ${config.distDir} yet; answering 503 until the first build lands there`);
  live.on("served", (next, previous) => {
    if (previous === null) reportOnSnapshot(next);
    metrics?.reload("served");
  });
  live.on("rejected", () => metrics?.reload("rejected"));

  let metricsServer: Server | undefined;
  /** The signal that started the stop, if one did; set once closing has begun. */
  let closing: { signal?: string } | undefined;
  // The stop signals are taken below, the other events (an uncaught error, an empty event loop) by close-with-grace.
  const grace = closeWithGrace({ delay: 10_000, skip: STOP_SIGNALS }, async ({ err }) => {
    closing ??= {};
    if (err !== undefined) app.log.error({ err }, "stopping after an uncaught error");
    else app.log.info(`${closing.signal ?? "stop"} received, closing`);
    await live.stop();
    metricsServer?.close();
    // The listener is closed here rather than inside app.close(), so the line can say when new
    // connections start being refused (tests wait for it). fastify's own server.close() in
    // app.close() still waits for the requests in flight to finish.
    if (app.server.listening) {
      app.server.close();
      app.log.info("no longer accepting connections; finishing the requests in flight");
    }
    await app.close();
    // What the answer cache did for this process, once it has answered its last request.
    if (config.cacheSeconds > 0) app.log.info(`answer cache: ${answerStats.hits} hits, ${answerStats.misses} misses`);
    // The spans of the last requests are sent before the process exits.
    await tracing?.shutdown();
  });

  /**
   * The first stop signal starts the stop. The same one again is ignored: npm passes on to its
   * script's process the SIGINT that a terminal's Ctrl-C has sent that process too (and `npm run
   * dev` the signal it was sent). Another forces the exit, as close-with-grace's second signal
   * does. The grace period bounds the stop either way.
   */
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (closing === undefined) {
        closing = { signal };
        void grace.close();
      } else if (signal === closing.signal) {
        app.log.info(`${signal} again while stopping: ignored`);
      } else {
        app.log.error(`${signal} while stopping; exiting now`);
        process.exit(1);
      }
    });
  }

  live.start(app.log);
  // Started over IPC (by `npm run dev`): told when a build has landed, it looks at once.
  if (process.channel !== undefined && !cluster.isWorker) {
    process.on("message", (message) => {
      if (message !== SNAPSHOT_BUILT_MESSAGE) return;
      app.log.info("told a snapshot was built; looking for it now");
      void live.check();
    });
  }
  try {
    // Metrics first: a server that must stop for want of them has then never been seen serving.
    // With WORKERS=n, the supervising process serves the metrics of all of them (supervise, below).
    const metricsPort = config.metricsPort;
    if (metrics !== undefined && metricsPort !== null && !cluster.isWorker) {
      metricsServer = await listening(config.host, metricsPort, "METRICS_PORT", () => metrics.listen(metricsPort, config.host, app.log));
      app.log.info(`metrics at http://${address(config.host, metricsPort)}/metrics`);
    }
    await listening(config.host, config.port, "PORT", () => app.listen({ port: config.port, host: config.host }));
  } catch (error) {
    // close-with-grace would end this stop with exit code 0, which a supervisor takes for a clean one.
    closing = {};
    grace.uninstall();
    metricsServer?.close();
    await live.stop();
    await app.close();
    await tracing?.shutdown();
    throw error;
  }
}

/** A listener's address that cannot be taken, said in one line naming the variables that chose it. */
class ListenError extends Error {}

function address(host: string, port: number): string {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Runs `listen`, turning its failure into a ListenError naming HOST and `portName`. */
async function listening<T>(host: string, port: number, portName: "PORT" | "METRICS_PORT", listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const at = `cannot listen on ${address(host, port)}`;
    const { code, message } = error as NodeJS.ErrnoException;
    switch (code) {
      case "EADDRINUSE":
        throw new ListenError(`${at} (HOST, ${portName}): the address is already in use`);
      case "EACCES":
        throw new ListenError(`${at} (HOST, ${portName}): permission denied (a port below 1024 needs privileges)`);
      // EAI_AGAIN: no name service answered, as on a machine without one.
      case "ENOTFOUND":
      case "EAI_AGAIN":
        throw new ListenError(`${at}: HOST does not resolve to an address of this machine`);
      case "EADDRNOTAVAIL":
        throw new ListenError(`${at}: HOST is not an address of this machine`);
      default:
        throw new ListenError(`${at} (HOST, ${portName}): ${message}`);
    }
  }
}

/** Whether this machine can listen on `host`:`port` now, tried with a listener closed at once. */
async function tryListen(host: string, port: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(port, host, resolve);
  });
  await new Promise((resolve) => probe.close(resolve));
}

/**
 * WORKERS=n (n > 1): this process only supervises n server processes sharing the port
 * (node:cluster); each loads and reloads the snapshot on its own. A worker that dies is replaced;
 * SIGTERM, SIGINT or SIGHUP sends SIGTERM to every worker, and the primary exits 0 once all have
 * finished their requests and exited.
 */
async function supervise(workers: number, config: Config): Promise<void> {
  // Both addresses are tried before any worker starts: each worker would say the same of the public one.
  await listening(config.host, config.port, "PORT", () => tryListen(config.host, config.port));
  const metricsPort = config.metricsPort;
  if (metricsPort !== null) {
    const { listenForWorkers } = await import("./metrics.ts");
    await listening(config.host, metricsPort, "METRICS_PORT", () => listenForWorkers(metricsPort, config.host));
    console.log(`metrics of ${workers} workers at http://${address(config.host, metricsPort)}/metrics`);
  }
  let stopping = false;
  const listened = new Set<number>();
  const fork = () => cluster.fork();
  cluster.on("listening", (worker) => listened.add(worker.id));
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
      return;
    }
    if (!listened.has(worker.id)) {
      // It never started (bad configuration or snapshot): another would fail the same way.
      console.error(`worker ${worker.process.pid} failed to start; stopping`);
      process.exitCode = 1;
      stop();
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  function stop(): void {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    // Workers stop within their own 10 s grace period; this is the backstop.
    setTimeout(() => process.exit(1), 12_000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
  }
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // A closed terminal's SIGHUP, which a single server takes as a stop too (close-with-grace).
  process.on("SIGHUP", stop);
  for (let i = 0; i < workers; i += 1) fork();
}

function fail(error: unknown): void {
  const known = error instanceof ConfigError || error instanceof SnapshotError || error instanceof ListenError;
  console.error(known ? (error as Error).message : error);
  process.exitCode = 1;
  // A worker that tried to listen stays connected to its supervisor, which would then wait for
  // it forever; its exit is what tells the supervisor it failed.
  if (cluster.isWorker) process.exit();
}

try {
  const config = readConfig();
  const tracingOn = tracingWanted();
  if (config.workers > 1 && cluster.isPrimary) supervise(config.workers, config).catch(fail);
  else main(config, tracingOn).catch(fail);
} catch (error) {
  fail(error);
}
