/**
 * What an editor and an operator wait for at a size: one listing edited and the snapshot rebuilt
 * over the previous one (`npm run build`); under `npm run dev`, the time from saving the file to
 * the server answering with the edit; and `npm run serve` (npm included) from the command to the
 * first answer. An edit is measured twice: made, then undone, which leaves the content and the
 * snapshot as they were. Files are saved as editors' tools save them: a new file renamed over
 * the old (which also leaves content shared by hard links with another folder untouched).
 */
import { createReadStream } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../test/helpers/ports.ts";
import { type Snapshot, start, stop, timed } from "./processes.ts";

/** Seconds for an edit, then for its undoing (an object, not a pair: Biome formats the results file's short arrays its own way). */
interface EditAndUndo {
  readonly edit: number;
  readonly undo: number;
}

/** The editor's waits. */
export interface EditTimes {
  readonly rebuildSeconds: EditAndUndo;
  readonly devServedSeconds: EditAndUndo;
  /** `npm run serve` on the built snapshot, from the command to the first directory search answered. */
  readonly npmServeReadySeconds: number;
}

/** How long a rebuild under `npm run dev` may take to show an edit before the bench gives up. */
const DEV_SECONDS = 600;

/** The snapshot's first listing: its slug and its content file (`businesses/<country>/<slug>.md`, as bench/generate.ts writes them). */
async function firstListing(snapshot: Snapshot): Promise<{ slug: string; file: string }> {
  const lines = createInterface({ input: createReadStream(join(snapshot.dist, "data", "businesses.ndjson")) });
  for await (const line of lines) {
    lines.close();
    const { slug, location } = JSON.parse(line) as { slug: string; location: { country: string } };
    return { slug, file: join(snapshot.env.CONTENT_DIR ?? "", "businesses", location.country.toLowerCase(), `${slug}.md`) };
  }
  throw new Error(`${snapshot.dist} has no listing`);
}

/** Saves `text` as `file`: written beside it, then renamed over it, as editors' tools save. */
export async function save(file: string, text: string): Promise<void> {
  const temporary = `${file}.bench-${process.pid}`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/** The listing's text with a sentence added at the end of its description, marked so that the page that shows it can be recognised. */
function edited(original: string, mark: string): string {
  return `${original.trimEnd()} ${mark}\n`;
}

/** Polls `url` until its body includes `mark` (or, `present` false, no longer does); the seconds since `since`. */
async function servedWhen(url: string, mark: string, present: boolean, since: number): Promise<number> {
  while (performance.now() - since < DEV_SECONDS * 1000) {
    const body = await fetch(url).then(
      (response) => (response.ok ? response.text() : ""),
      () => "",
    );
    if (body !== "" && body.includes(mark) === present) return (performance.now() - since) / 1000;
    await sleep(20);
  }
  throw new Error(`${url} did not ${present ? "show" : "drop"} the edit within ${DEV_SECONDS} s`);
}

/** Measures the editor's waits on `snapshot` (built from its CONTENT_DIR), leaving both as they were. */
export async function measureEdits(snapshot: Snapshot): Promise<EditTimes> {
  const { slug, file } = await firstListing(snapshot);
  const original = await readFile(file, "utf8");
  const mark = `Edited by the bench, ${process.pid}-${Date.now()}.`;
  const rebuildSeconds: number[] = [];
  try {
    for (const text of [edited(original, mark), original]) {
      await save(file, text);
      rebuildSeconds.push((await timed("build/cli.ts", [], snapshot.env)).seconds);
    }
  } finally {
    await save(file, original);
  }
  console.log(
    `  one edit rebuilt in ${rebuildSeconds.map((seconds) => seconds.toFixed(1)).join(" s and ")} s (the edit, then its undoing)`,
  );

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...snapshot.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", RATE_LIMIT_MAX: "0" };
  const devServedSeconds: number[] = [];
  const dev = await start(["run", "--silent", "dev"], env, `${url}/api/directory?limit=1`, { command: "npm", seconds: DEV_SECONDS });
  let undone = false;
  try {
    const page = `${url}/businesses/${slug}/index.md`;
    for (const [text, present] of [
      [edited(original, mark), true],
      [original, false],
    ] as const) {
      const saved = performance.now();
      await save(file, text);
      undone = !present;
      devServedSeconds.push(await servedWhen(page, mark, present, saved));
    }
  } finally {
    await stop(dev.child);
    if (!undone) await save(file, original);
  }
  console.log(`  npm run dev served the edit ${devServedSeconds.map((seconds) => seconds.toFixed(1)).join(" s and ")} s after the save`);

  const serve = await start(["run", "--silent", "serve"], env, `${url}/api/directory?limit=1`, { command: "npm" });
  await stop(serve.child);
  console.log(`  npm run serve answered ${serve.seconds.toFixed(2)} s after the command`);
  const pair = ([edit = Number.NaN, undo = Number.NaN]: number[]) => ({ edit, undo });
  return { rebuildSeconds: pair(rebuildSeconds), devServedSeconds: pair(devServedSeconds), npmServeReadySeconds: serve.seconds };
}
