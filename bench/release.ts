/**
 * A release for the change feed's scenario (interface §8): `count` listings' descriptions edited
 * and the snapshot rebuilt over the one the bench built, so that `GET /api/changes?since=<the
 * release before>` answers `count` lines. `restore` puts the content files back as they were
 * generated (the snapshot is removed with the others when the run ends).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { listingFilesOf } from "../test/helpers/snapshot-files.ts";
import { save } from "./edits.ts";
import { type Snapshot, timed } from "./processes.ts";

/** The release made: the version before it, and how to put the content back. */
export interface BenchRelease {
  readonly since: string;
  readonly restore: () => Promise<void>;
}

const currentOf = async (dist: string) =>
  (JSON.parse(await readFile(join(dist, "data", "releases.json"), "utf8")) as { current: string }).current;

export async function makeRelease(snapshot: Snapshot, count: number): Promise<BenchRelease> {
  const since = await currentOf(snapshot.dist);
  // The first `count` approved listings: an edit of any other changes nothing published.
  const files: string[] = [];
  const originals: string[] = [];
  for (const file of await listingFilesOf(snapshot.env.CONTENT_DIR ?? "")) {
    if (files.length === count) break;
    const text = await readFile(file, "utf8");
    if (!/^status: approved$/m.test(text)) continue;
    files.push(file);
    originals.push(text);
  }
  const restore = async () => {
    for (const [i, file] of files.entries()) await save(file, originals[i] as string);
  };
  try {
    for (const [i, file] of files.entries()) await save(file, `${(originals[i] as string).trimEnd()} Edited for a release.\n`);
    const built = await timed("build/cli.ts", [], snapshot.env);
    console.log(`  a release of ${count} edited listings built in ${built.seconds.toFixed(1)} s over ${since}`);
  } catch (error) {
    await restore();
    throw error;
  }
  return { since, restore };
}
