/**
 * `npm run build` (content → dist/) and `npm run check` (validate only). Exits 1 with every
 * content error listed, writing nothing. `--verbose` prints each stage's time and memory.
 */
import { performance } from "node:perf_hooks";
import { ConfigError, readConfig } from "../src/config.ts";
import { readContent } from "./content.ts";
import { deriveModel } from "./derive.ts";
import { writeSnapshot } from "./emit.ts";
import { validateContent } from "./validate.ts";

const MiB = 2 ** 20;

/** Prints, per stage, its time, the resident memory now and the peak so far. */
function stageLogger(verbose: boolean): (name: string) => void {
  let last = performance.now();
  return (name) => {
    if (!verbose) return;
    const now = performance.now();
    const rss = process.memoryUsage().rss / MiB;
    const peak = (process.resourceUsage().maxRSS * 1024) / MiB;
    console.log(
      `  ${name.padEnd(34)} ${`${Math.round(now - last)} ms`.padStart(9)}   rss ${rss.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB`,
    );
    last = now;
  };
}

async function main(): Promise<number> {
  const started = performance.now();
  const checkOnly = process.argv.includes("--check");
  const stage = stageLogger(process.argv.includes("--verbose"));
  const config = readConfig();

  const raw = readContent(config.contentDir);
  stage(`read ${raw.businesses.length + raw.offerings.length + 1} files`);
  const validation = validateContent(raw);
  stage("validate");
  if (!validation.ok) {
    const problems = validation.problems;
    console.error(`${config.contentDir}: ${problems.length} content error${problems.length === 1 ? "" : "s"}; nothing was written.`);
    for (const { file, field, message } of problems) console.error(`  ${file}: ${field}: ${message}`);
    return 1;
  }

  const model = deriveModel(validation.content, config.baseUrl);
  stage("derive");
  const skipped =
    Object.entries(model.skipped)
      .map(([status, count]) => `${count} ${status}`)
      .join(", ") || "none";
  const counts = `${model.offerings.length} offerings, ${model.businesses.length} approved listings (left out: ${skipped})`;
  if (checkOnly) {
    console.log(`${config.contentDir}: valid: ${counts}.`);
    return 0;
  }
  const { version, files } = await writeSnapshot(config.distDir, model, { builtAt: new Date(), stage });
  const ms = Math.round(performance.now() - started);
  console.log(`Built ${config.distDir}/ for ${model.baseUrl}: ${counts}; ${files} files; version ${version}; ${ms} ms.`);
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
