import {
  changedIds,
  type Release,
  ReleasesError,
  readChanges,
  readListingReleases,
  removalLine,
  UPSERT_PREFIX,
} from "../snapshot/releases.ts";
import type { Part, SnapshotView } from "../snapshot/view.ts";
import { directoryOf, findBusiness, listingJson } from "./directory.ts";
import { directoryUnavailable, releaseUnknown } from "./errors.ts";

/**
 * The change feed (interface §8): the net change from a release to the current one, made from
 * the snapshot's history. Only the ids of each release's changes file are read from it (on first
 * use, per view); every listing's latest state is the snapshot's own line, so the answer applied
 * to the records of `since` gives exactly the records of businesses.ndjson.
 */

/** Each release's changed ids, by version, read from its changes file on first use. */
const CHANGED: Part<Map<string, Promise<readonly string[]>>> = { name: "releases' changed ids", make: () => new Map() };

/** A history file found damaged or missing after the snapshot loaded: the directory is unavailable until a good one lands. */
function unavailableIfDamaged(error: unknown): never {
  throw error instanceof ReleasesError ? directoryUnavailable() : error;
}

function changedIdsOf(view: SnapshotView, release: Release): Promise<readonly string[]> {
  const known = view.get(CHANGED);
  let ids = known.get(release.version);
  if (ids === undefined) {
    ids = readChanges(view.snapshot.releases, release.version).then((bytes) => changedIds(bytes, release));
    // A failure is not kept: a later request reads again.
    ids.catch(() => known.delete(release.version));
    known.set(release.version, ids);
  }
  return ids.catch(unavailableIfDamaged);
}

const UPSERT_START = Buffer.from(UPSERT_PREFIX);
const LINE_END = Buffer.from("}\n");
const NEWLINE = Buffer.from("\n");

/**
 * The NDJSON answer to `GET /api/changes?since=<since>`: a header line, then one line per listing
 * changed since that release (its latest state: an upsert of its line, or its removal), in id
 * order. release_unknown when the history does not hold `since`.
 */
export async function changesSince(view: SnapshotView, since: string): Promise<Buffer> {
  const { file } = view.snapshot.releases;
  const at = file.releases.findIndex((release) => release.version === since);
  if (at < 0) throw releaseUnknown();
  const directory = directoryOf(view);
  const changed = new Set<string>();
  for (const ids of await Promise.all(file.releases.slice(0, at).map((release) => changedIdsOf(view, release)))) {
    for (const id of ids) changed.add(id);
  }
  const lines: Buffer[] = [];
  let upserts = 0;
  for (const id of [...changed].sort()) {
    const rank = findBusiness(directory, id);
    if (rank === undefined) {
      lines.push(Buffer.from(removalLine(id)), NEWLINE);
    } else {
      upserts += 1;
      lines.push(UPSERT_START, listingJson(directory, rank), LINE_END);
    }
  }
  const header = { from: since, to: file.current, upserts, removals: changed.size - upserts };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ...lines]);
}

/** The bytes of release `version`'s changes file (one the history has), checked against its digest. */
export function changesFileOf(view: SnapshotView, version: string): Promise<Buffer> {
  return readChanges(view.snapshot.releases, version).catch(unavailableIfDamaged);
}

/** When each listing last changed (its release's builtAt), by rank: read from listing-releases.json on first use. */
async function readLastmods(view: SnapshotView): Promise<readonly string[]> {
  const { releases, directory } = view.snapshot;
  const { times, listings } = await readListingReleases(releases);
  if (listings.length !== (directory?.index.count ?? listings.length)) {
    throw new ReleasesError("listing-releases.json does not hold the directory's listings");
  }
  return listings.map(([, , time]) => times[time] as string);
}

/** The lastmods being read or read; none while a read has failed, so that a later request reads again. */
const LASTMODS: Part<{ read: Promise<readonly string[]> | null }> = { name: "listings' release dates", make: () => ({ read: null }) };

/** Each listing's lastmod by rank, for the sitemaps. */
export function listingLastmods(view: SnapshotView): Promise<readonly string[]> {
  const kept = view.get(LASTMODS);
  if (kept.read === null) {
    const read = readLastmods(view);
    read.catch(() => {
      if (kept.read === read) kept.read = null;
    });
    kept.read = read;
  }
  return kept.read.catch(unavailableIfDamaged);
}
