/**
 * `npm run build` (content → dist/) and `npm run check` (validate only). Exits 1 with every
 * content error listed, writing nothing.
 */
import { performance } from "node:perf_hooks";
import { ConfigError, readConfig } from "../src/config.ts";
import { readContent } from "./content.ts";
import { deriveModel } from "./derive.ts";
import { snapshotFiles, writeSnapshot } from "./emit.ts";
import { validateContent } from "./validate.ts";

async function main(): Promise<number> {
  const started = performance.now();
  const checkOnly = process.argv.includes("--check");
  const config = readConfig();

  const raw = await readContent(config.contentDir);
  const validation = validateContent(raw);
  if (!validation.ok) {
    const problems = validation.problems;
    console.error(`${config.contentDir}: ${problems.length} content error${problems.length === 1 ? "" : "s"}; nothing was written.`);
    for (const { file, field, message } of problems) console.error(`  ${file}: ${field}: ${message}`);
    return 1;
  }

  const model = deriveModel(validation.content, config.baseUrl);
  const skipped =
    Object.entries(model.skipped)
      .map(([status, count]) => `${count} ${status}`)
      .join(", ") || "none";
  const counts = `${model.offerings.length} offerings, ${model.businesses.length} approved listings (left out: ${skipped})`;
  if (checkOnly) {
    console.log(`${config.contentDir}: valid: ${counts}.`);
    return 0;
  }
  await writeSnapshot(config.distDir, snapshotFiles(model, new Date()));
  const ms = Math.round(performance.now() - started);
  console.log(`Built ${config.distDir}/ for ${model.baseUrl}: ${counts}; version ${model.version}; ${ms} ms.`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
