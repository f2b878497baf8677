import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { RELEASES_KEPT, VERSION_PATTERN } from "../contract.ts";
import { changesFile, type FileDigest, isFileDigest, matchesDigest, SNAPSHOT_FILES } from "./files.ts";

/**
 * The release history's files (interface §8), as the build writes them and the server and the
 * next build read them: data/releases.json, data/changes/<version>.ndjson, and
 * data/listing-releases.json (each listing's line digest and when it last changed). Every one
 * is checked against the digest the manifest gives for it, and its shape here.
 */

/** One release, as releases.json lists it. */
export interface Release {
  readonly version: string;
  /** The release this one changed from; null for the first of a history, which has no changes file. */
  readonly previous: string | null;
  /** When it was built (RFC 3339, UTC): the manifest's builtAt of the build that made it. */
  readonly builtAt: string;
  /** How many listings it holds. */
  readonly listings: number;
  /** How many lines of its changes file are upserts, and how many removals. */
  readonly upserts: number;
  readonly removals: number;
}

/** data/releases.json: the current release and every release kept, newest first. */
export interface ReleasesFile {
  readonly current: string;
  readonly releases: readonly Release[];
}

/** The history as a snapshot holds it, for the server: releases.json, and where to read the changes files. */
export interface Releases {
  readonly file: ReleasesFile;
  /** releases.json as the build wrote it. */
  readonly bytes: Buffer;
  /** The snapshot's folder: the changes files and listing-releases.json are read from it on request. */
  readonly dir: string;
  /** The manifest's digest of each release's changes file, by version. */
  readonly changes: Readonly<Record<string, FileDigest>>;
  /** The manifest's digest of data/listing-releases.json. */
  readonly listingReleases: FileDigest;
}

/** A history file that is not what the build writes. */
export class ReleasesError extends Error {}

const VERSION = new RegExp(VERSION_PATTERN);
/** builtAt as Date.toISOString() writes it. */
const BUILT_AT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Whether `text` is shaped like a snapshot's version. */
export function isVersion(text: unknown): text is string {
  return typeof text === "string" && VERSION.test(text);
}

const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

function isRelease(value: unknown): value is Release {
  const release = value as Partial<Release> | null;
  return (
    typeof release === "object" &&
    release !== null &&
    isVersion(release.version) &&
    (release.previous === null || isVersion(release.previous)) &&
    typeof release.builtAt === "string" &&
    BUILT_AT.test(release.builtAt) &&
    count(release.listings) &&
    count(release.upserts) &&
    count(release.removals)
  );
}

/**
 * releases.json parsed and checked against the changes files the manifest lists (`changes`): a
 * ReleasesError says what is wrong. Every release but the first of a history (the oldest, with
 * no previous) changed something and has a changes file; versions are unique.
 */
export function checkReleases(text: string, changes: Readonly<Record<string, unknown>>): ReleasesFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ReleasesError("releases.json is not valid JSON");
  }
  const file = json as Partial<ReleasesFile> | null;
  const releases = file?.releases;
  if (!Array.isArray(releases) || releases.length === 0 || releases.length > RELEASES_KEPT || !releases.every(isRelease)) {
    throw new ReleasesError(`releases.json does not list 1 to ${RELEASES_KEPT} releases of the shape the build writes`);
  }
  const current = releases[0]?.version;
  if (file?.current !== current || current === undefined) throw new ReleasesError("releases.json's current is not its newest release");
  if (new Set(releases.map((release) => release.version)).size !== releases.length) {
    throw new ReleasesError("releases.json lists a version twice");
  }
  const changed = releases.filter((release, i) => release.previous !== null || i < releases.length - 1);
  const changedVersions = changed.map((release) => release.version).sort();
  if (
    changed.some((release) => release.previous === null || release.upserts + release.removals === 0) ||
    JSON.stringify(changedVersions) !== JSON.stringify(Object.keys(changes).sort()) ||
    !Object.values(changes).every(isFileDigest)
  ) {
    throw new ReleasesError("releases.json and the manifest do not name the same changes files");
  }
  return { current, releases };
}

/** The start of an upsert's line and of a removal's, up to the listing's id; a line's id is the 36 characters after it. */
/** An upsert's line up to its listing's JSON; the line ends with the listing's JSON and `}`. */
export const UPSERT_PREFIX = '{"op":"upsert","business":';
const UPSERT_START = `${UPSERT_PREFIX}{"id":"`;
const REMOVE_START = '{"op":"remove","id":"';
const ID_LENGTH = 36;

/** An upsert's line in a changes file or answer: `line` is the listing's JSON line (businesses.ndjson's). */
export function upsertLine(line: string): string {
  return `${UPSERT_PREFIX}${line}}`;
}

export function removalLine(id: string): string {
  return `${REMOVE_START}${id}"}`;
}

/**
 * The ids of a changes file's lines, in the file's order, each checked to be in `id` order
 * after the one before; a ReleasesError when the file is not what the build writes.
 */
export function changedIds(bytes: Buffer, release: Release): string[] {
  const lines = bytes.toString("utf8").split("\n");
  if (lines.pop() !== "" || lines.length !== release.upserts + release.removals) {
    throw new ReleasesError(`the changes file of ${release.version} does not hold the lines releases.json counts`);
  }
  const ids: string[] = [];
  for (const line of lines) {
    const start = line.startsWith(UPSERT_START) ? UPSERT_START.length : line.startsWith(REMOVE_START) ? REMOVE_START.length : -1;
    const id = start < 0 ? "" : line.slice(start, start + ID_LENGTH);
    if (id.length !== ID_LENGTH || line[start + ID_LENGTH] !== '"' || !(ids.length === 0 || (ids.at(-1) as string) < id)) {
      throw new ReleasesError(`a line of the changes file of ${release.version} is not an upsert or removal in id order`);
    }
    ids.push(id);
  }
  return ids;
}

/** How many hex digits of a listing line's SHA-256 listing-releases.json keeps: 128 bits, ample to tell an edit. */
export const LINE_DIGEST_LENGTH = 32;

/**
 * data/listing-releases.json: for each listing, in rank order, its id, the start of its line's
 * SHA-256 and when it last changed (an index into `times`, the builtAt of releases, newest first).
 */
export interface ListingReleases {
  readonly times: readonly string[];
  readonly listings: readonly (readonly [id: string, digest: string, time: number])[];
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LINE_DIGEST = new RegExp(`^[0-9a-f]{${LINE_DIGEST_LENGTH}}$`);

/** listing-releases.json parsed and checked; a ReleasesError when it is not what the build writes. */
export function checkListingReleases(text: string): ListingReleases {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ReleasesError("listing-releases.json is not valid JSON");
  }
  const { times, listings } = (json ?? {}) as Partial<ListingReleases>;
  const valid =
    Array.isArray(times) &&
    times.every((time) => typeof time === "string" && BUILT_AT.test(time)) &&
    Array.isArray(listings) &&
    listings.every(
      (entry) =>
        Array.isArray(entry) &&
        entry.length === 3 &&
        ID.test(String(entry[0])) &&
        LINE_DIGEST.test(String(entry[1])) &&
        Number.isSafeInteger(entry[2]) &&
        entry[2] >= 0 &&
        entry[2] < times.length,
    );
  if (!valid) throw new ReleasesError("listing-releases.json does not have the shape the build writes");
  return { times, listings };
}

/** `bytes` (null: unreadable) when they are the file `digest` describes; a ReleasesError naming the file otherwise. */
function digested(bytes: Buffer | null, digest: FileDigest, name: string): Buffer {
  if (bytes === null) throw new ReleasesError(`${name} is missing or unreadable`);
  if (!matchesDigest(bytes, digest)) throw new ReleasesError(`${name} is not the file the manifest describes`);
  return bytes;
}

/** The bytes of the file at `path` (`name` in the snapshot), checked against `digest`. */
async function readDigested(path: string, digest: FileDigest, name: string): Promise<Buffer> {
  return digested(await readFile(path).catch(() => null), digest, name);
}

/** readDigested, for the build, which reads a previous snapshot's history synchronously. */
export function readDigestedSync(path: string, digest: FileDigest, name: string): Buffer {
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(path);
  } catch {
    // Reported as unreadable.
  }
  return digested(bytes, digest, name);
}

/** Release `version`'s changes file in the snapshot of `releases`, checked against its digest. */
export function readChanges(releases: Releases, version: string): Promise<Buffer> {
  const digest = releases.changes[version];
  if (digest === undefined) return Promise.reject(new ReleasesError(`${version} has no changes file`));
  return readDigested(join(releases.dir, changesFile(version)), digest, changesFile(version));
}

/** listing-releases.json of the snapshot of `releases`, checked against its digest and its shape. */
export async function readListingReleases(releases: Releases): Promise<ListingReleases> {
  const name = SNAPSHOT_FILES.listingReleases;
  return checkListingReleases((await readDigested(join(releases.dir, name), releases.listingReleases, name)).toString("utf8"));
}
