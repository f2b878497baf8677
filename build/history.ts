import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { changesFile, isFileDigest, type Manifest, SNAPSHOT_FILES, SNAPSHOT_FORMAT_VERSION } from "../src/snapshot/files.ts";
import { checkListingReleases, checkReleases, type Release, ReleasesError, readDigestedSync } from "../src/snapshot/releases.ts";

/**
 * The release history a build continues (interface §8), read from the previous snapshot: `dist/`
 * as the build finds it, else the folder PREVIOUS_SNAPSHOT names (a snapshot's folder, or only
 * its `data/`, as a CI job downloads it from the live site). Every file is checked against the
 * digest its manifest gives: a snapshot that is damaged, of another format or unreadable starts a
 * new history with a warning, and never fails the build. The history is data, not a cache, so
 * `--clean` reads it too.
 */

/** A listing of the previous snapshot: the start of its line's SHA-256 and when it last changed. */
interface ListingState {
  readonly digest: string;
  readonly time: string;
}

/** What the previous snapshot holds of the history. */
export interface History {
  /** Newest first. */
  readonly releases: readonly Release[];
  /** The bytes of each release's changes file, by version. */
  readonly changes: ReadonlyMap<string, Buffer>;
  /** Its listings, by id. */
  readonly listings: ReadonlyMap<string, ListingState>;
}

/** The history to continue, or why there is none: `note` when there was no previous snapshot, `warning` when it could not be used. */
export type PreviousHistory =
  | { readonly history: History }
  | { readonly history: null; readonly note: string }
  | { readonly history: null; readonly warning: { readonly path: string; readonly message: string } };

const DATA = "data/";

/** Where a file of a snapshot's `data/` is, for a snapshot's folder or (`dataOnly`) its `data/` folder alone. */
function locate(folder: string, dataOnly: boolean): (file: string) => string {
  return (file) => join(folder, dataOnly && file.startsWith(DATA) ? file.slice(DATA.length) : file);
}

/** The history in the snapshot whose files `at` locates; a ReleasesError says why it cannot be used. */
function historyIn(at: (file: string) => string): History {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(readFileSync(at(SNAPSHOT_FILES.manifest), "utf8")) as Partial<Manifest>;
  } catch {
    throw new ReleasesError("its manifest is unreadable or not valid JSON");
  }
  if (manifest.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
    throw new ReleasesError(
      `it is of another snapshot format (${String(manifest.formatVersion)}, this build writes ${SNAPSHOT_FORMAT_VERSION})`,
    );
  }
  const { releases: releasesDigest, listingReleases: listingsDigest } = manifest.files ?? {};
  const changesDigests = manifest.changes;
  if (!isFileDigest(releasesDigest) || !isFileDigest(listingsDigest) || typeof changesDigests !== "object" || changesDigests === null) {
    throw new ReleasesError("its manifest does not describe the history's files");
  }
  const read = (file: string, digest: Parameters<typeof readDigestedSync>[1]) => readDigestedSync(at(file), digest, file);
  const { releases } = checkReleases(read(SNAPSHOT_FILES.releases, releasesDigest).toString("utf8"), changesDigests);
  const changes = new Map<string, Buffer>();
  for (const [version, digest] of Object.entries(changesDigests)) changes.set(version, read(changesFile(version), digest));
  const { times, listings } = checkListingReleases(read(SNAPSHOT_FILES.listingReleases, listingsDigest).toString("utf8"));
  const byId = new Map<string, ListingState>();
  for (const [id, digest, time] of listings) byId.set(id, { digest, time: times[time] as string });
  if (byId.size !== listings.length) throw new ReleasesError("listing-releases.json lists a listing twice");
  return { releases, changes, listings: byId };
}

/** The history of the previous snapshot: in `distDir`, else in `previousSnapshot` (PREVIOUS_SNAPSHOT) when it is set. */
export function previousHistory(distDir: string, previousSnapshot: string | undefined): PreviousHistory {
  const inDist = existsSync(join(distDir, SNAPSHOT_FILES.manifest));
  if (!inDist && previousSnapshot === undefined) {
    return { history: null, note: `${distDir}/ holds no snapshot and PREVIOUS_SNAPSHOT is not set` };
  }
  const folder = inDist ? distDir : (previousSnapshot as string);
  const dataOnly = !inDist && !existsSync(join(folder, SNAPSHOT_FILES.manifest)) && existsSync(join(folder, "manifest.json"));
  const at = locate(folder, dataOnly);
  try {
    return { history: historyIn(at) };
  } catch (error) {
    if (!(error instanceof ReleasesError)) throw error;
    const where = inDist ? "the previous snapshot" : `the snapshot PREVIOUS_SNAPSHOT names`;
    return {
      history: null,
      warning: { path: at(SNAPSHOT_FILES.releases), message: `${where} cannot continue the release history: ${error.message}` },
    };
  }
}
