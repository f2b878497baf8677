import { RELEASES_KEPT } from "../src/contract.ts";
import { changesFile, digestOf, type FileDigest } from "../src/snapshot/files.ts";
import { LINE_DIGEST_LENGTH, type Release, removalLine, upsertLine } from "../src/snapshot/releases.ts";
import type { FileWriter } from "./file-writer.ts";
import type { History } from "./history.ts";

/**
 * The next state of the release history (interface §8), written into the new snapshot: a build
 * whose listings differ from the previous snapshot's (by id and line digest) is a release named
 * by its version, with a changes file from the release before; a build with the same listings
 * keeps the history as it was. Nothing here depends on the cache: a clean build gives the same
 * files from the same previous snapshot.
 */

/** The new snapshot's listings, by rank. */
export interface ReleaseListings {
  readonly count: number;
  readonly idAt: (rank: number) => string;
  /** The SHA-256 (hex) of the listing's JSON line. */
  readonly lineSha256At: (rank: number) => string;
  /** Its JSON line, for the few that changed. */
  readonly lineAt: (rank: number) => string;
}

/** What the history files say of this build. */
export interface WrittenHistory {
  /** The release this build made; null when the listings are those of the current release. */
  readonly made: Release | null;
  /** The newest release: `made`, or the previous snapshot's current one. */
  readonly current: Release;
  /** Each listing's lastmod by rank: the builtAt of the release in which it last changed. */
  readonly lastmods: readonly string[];
  /** The manifest's digests of the changes files, by version, newest first. */
  readonly changes: Record<string, FileDigest>;
}

/** Each changed listing's line in the changes file, in id order. */
function changesBytes(listings: ReleaseListings, upserted: readonly number[], removed: readonly string[]): Buffer {
  const lines = [
    ...upserted.map((rank) => [listings.idAt(rank), upsertLine(listings.lineAt(rank))] as const),
    ...removed.map((id) => [id, removalLine(id)] as const),
  ].sort(([a], [b]) => (a < b ? -1 : 1));
  return Buffer.from(lines.map(([, line]) => `${line}\n`).join(""));
}

/** listing-releases.json: each listing by rank with its line digest and the index of its time in `times`, newest first. */
function listingReleasesJson(listings: ReleaseListings, lastmods: readonly string[]): string {
  const times = [...new Set(lastmods)].sort().reverse();
  const timeIndex = new Map(times.map((time, i) => [time, i]));
  const rows: string[] = [];
  for (let rank = 0; rank < listings.count; rank += 1) {
    const digest = listings.lineSha256At(rank).slice(0, LINE_DIGEST_LENGTH);
    rows.push(JSON.stringify([listings.idAt(rank), digest, timeIndex.get(lastmods[rank] as string)]));
  }
  return `{"times":${JSON.stringify(times)},"listings":[\n${rows.join(",\n")}\n]}\n`;
}

/**
 * Writes the history files of the snapshot `version`, built at `builtAt`, into `out`: the
 * previous snapshot's `history` continued (null: a new history, whose one release has no changes
 * file).
 */
export function writeHistory(
  out: FileWriter,
  history: History | null,
  { version, builtAt }: { version: string; builtAt: string },
  listings: ReleaseListings,
): WrittenHistory {
  const upserted: number[] = [];
  const lastmods: string[] = [];
  const present = new Set<string>();
  for (let rank = 0; rank < listings.count; rank += 1) {
    const id = listings.idAt(rank);
    present.add(id);
    const before = history?.listings.get(id);
    if (before !== undefined && before.digest === listings.lineSha256At(rank).slice(0, LINE_DIGEST_LENGTH)) {
      lastmods.push(before.time);
    } else {
      upserted.push(rank);
      lastmods.push(builtAt);
    }
  }
  const removed = history === null ? [] : [...history.listings.keys()].filter((id) => !present.has(id));

  let releases: readonly Release[];
  let changes: ReadonlyMap<string, Buffer>;
  let made: Release | null = null;
  if (history === null) {
    made = { version, previous: null, builtAt, listings: listings.count, upserts: 0, removals: 0 };
    releases = [made];
    changes = new Map();
  } else if (upserted.length === 0 && removed.length === 0) {
    ({ releases, changes } = history);
  } else {
    const previous = (history.releases[0] as Release).version;
    made = { version, previous, builtAt, listings: listings.count, upserts: upserted.length, removals: removed.length };
    // A version seen before (an edit undone) has the same listings as then. Its changes file is now
    // this release's, so the releases before its earlier place lose the link to it: the history
    // is cut there, and a client at one of them is told to download the directory again (410).
    const again = history.releases.findIndex((release) => release.version === version);
    releases = [made, ...(again < 0 ? history.releases : history.releases.slice(0, again))].slice(0, RELEASES_KEPT);
    changes = new Map([...history.changes, [version, changesBytes(listings, upserted, removed)]]);
  }

  const digests: Record<string, FileDigest> = {};
  for (const release of releases) {
    const bytes = changes.get(release.version);
    if (bytes === undefined) continue;
    out.write(changesFile(release.version), bytes);
    digests[release.version] = digestOf(bytes);
  }
  const current = releases[0] as Release;
  out.data("releases", `${JSON.stringify({ current: current.version, releases }, null, 2)}\n`);
  out.data("listingReleases", listingReleasesJson(listings, lastmods));
  return { made, current, lastmods, changes: digests };
}
