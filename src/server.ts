/** The entry point: config → snapshot → app → listen, and a graceful stop on signals. */
import closeWithGrace from "close-with-grace";
import { ConfigError, readConfig } from "./config.ts";
import { loadSnapshot, SnapshotError } from "./snapshot/load.ts";
import { LiveSnapshot } from "./snapshot/reload.ts";

async function main(): Promise<void> {
  const config = readConfig();
  // The snapshot's listing check starts its worker threads at once; the application's modules
  // load meanwhile instead of before.
  const loading = loadSnapshot(config.distDir);
  loading.catch(() => {});
  const [{ buildApp }, { CatalogService }] = await Promise.all([import("./app.ts"), import("./core/service.ts")]);
  const snapshot = await loading;
  let live: LiveSnapshot | null = null;
  const service = new CatalogService({ snapshot: () => live?.current() ?? snapshot, cacheSeconds: config.cacheSeconds });
  const app = await buildApp({ service, config, logger: { level: config.logLevel } });
  // A rebuilt dist/ is served within about a second of the build's swap (contract §3).
  live = new LiveSnapshot({ distDir: config.distDir, initial: snapshot, log: app.log });

  if (snapshot.directoryProblem !== null) {
    app.log.error(`directory unavailable, its endpoints answer 503: ${snapshot.directoryProblem}`);
  }
  if (snapshot.manifest.baseUrl !== config.baseUrl) {
    app.log.warn(
      `the snapshot was built for ${snapshot.manifest.baseUrl}, but BASE_URL is ${config.baseUrl}; rebuild with the same BASE_URL.`,
    );
  }

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err !== undefined) app.log.error({ err }, "stopping after an uncaught error");
    else app.log.info(`${signal ?? "stop"} received, closing`);
    await live?.stop();
    await app.close();
  });

  await live.start();
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof SnapshotError;
  console.error(known ? (error as Error).message : error);
  process.exitCode = 1;
});
