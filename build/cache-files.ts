import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * How build/cache.ts keeps its entries on disk: in SEGMENTS files, each file's entry in the one
 * its path hashes to, so that a build that changed a few files rewrites a few segments, not the
 * whole cache (at 100,000 listings that was 90 MB, 2.5-4 s of every incremental build). Each
 * segment starts with a header line (the cache's format, code fingerprint and BASE_URL); a
 * segment whose header is not the build's is not used. An entry says what a file's bytes parse
 * to, so segments written by different builds of the same code can be used together: a build
 * stopped between two segments' renames leaves a usable cache.
 */

/** How many segments the entries are spread over. */
const SEGMENTS = 64;

/** Segment files are `files-00.ndjson` … `files-63.ndjson`. */
const segmentName = (segment: number) => `files-${String(segment).padStart(2, "0")}.ndjson`;

/** The segment file that keeps the entry of `file` (a path relative to the content folder). */
export const segmentFile = (file: string) => segmentName(segmentOf(file));

/** The segment a content file's entry is kept in (FNV-1a of its path). */
function segmentOf(file: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i += 1) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SEGMENTS;
}

/**
 * One entry as read from the previous cache. Its line is not kept (at a million listings the
 * lines were 0.9 GB, and a build rewrites only the segments that changed): a segment written
 * again serialises it again, which gives the same line (JSON.stringify of what JSON.parse read
 * from JSON.stringify's output).
 */
export class StoredEntry<T> {
  readonly entry: T;
  constructor(entry: T) {
    this.entry = entry;
  }
}

/** The entries of every segment whose header is `header`, by path, and how many entries each segment held (-1: unusable). */
export function readSegments<T>(dir: string, header: string): { entries: Map<string, StoredEntry<T>>; counts: number[] } {
  const entries = new Map<string, StoredEntry<T>>();
  const counts: number[] = [];
  for (let segment = 0; segment < SEGMENTS; segment += 1) {
    let count = -1;
    try {
      count = readSegment(join(dir, segmentName(segment)), header, entries);
    } catch {
      // Missing or damaged: its files are read again, and it is written again.
    }
    counts.push(count);
  }
  return { entries, counts };
}

/** Adds a segment's entries to `entries`; returns how many it held; throws when it is not a segment with this header. */
function readSegment<T>(path: string, header: string, entries: Map<string, StoredEntry<T>>): number {
  // As one string split into lines: a Buffer.indexOf and a decoding per line were 1.7 s of a loaded incremental build's profile.
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines[0] !== header) throw new Error("not a segment of this cache");
  const found: [string, StoredEntry<T>][] = [];
  for (let at = 1; at < lines.length; at += 1) {
    const line = lines[at] as string;
    if (line === "") continue;
    const [file, entry] = JSON.parse(line) as [string, T];
    if (typeof file !== "string") throw new Error("not a segment");
    found.push([file, new StoredEntry(entry)]);
  }
  for (const [file, stored] of found) entries.set(file, stored);
  return found.length;
}

/** Collects what a build keeps, segment by segment, and writes the segments that changed. */
export class SegmentWriter<T> {
  /** Per segment, by path: an entry read from the previous cache (kept as it was) or a new entry. */
  readonly #segments = Array.from({ length: SEGMENTS }, () => new Map<string, T | StoredEntry<T>>());
  /** Per segment, whether it holds an entry that is not a previous line. */
  readonly #changed = new Array<boolean>(SEGMENTS).fill(false);
  readonly #previousCounts: readonly number[];

  /** `previousCounts`: how many entries each segment of the previous cache held (-1 when it is not usable). */
  constructor(previousCounts: readonly number[] | null) {
    this.#previousCounts = previousCounts ?? new Array<number>(SEGMENTS).fill(-1);
  }

  set(file: string, value: T | StoredEntry<T>): void {
    const segment = segmentOf(file);
    this.#segments[segment]?.set(file, value);
    if (!(value instanceof StoredEntry)) this.#changed[segment] = true;
  }

  get(file: string): T | StoredEntry<T> | undefined {
    return this.#segments[segmentOf(file)]?.get(file);
  }

  /** Every entry as a previous cache's (`read` gives a new one as it is read from its line), and how many each segment holds. */
  saved(read: (file: string, entry: T) => T): { entries: Map<string, StoredEntry<T>>; counts: number[] } {
    const entries = new Map<string, StoredEntry<T>>();
    for (const segment of this.#segments) {
      for (const [file, entry] of segment) entries.set(file, entry instanceof StoredEntry ? entry : new StoredEntry(read(file, entry)));
    }
    return { entries, counts: this.#segments.map((segment) => segment.size) };
  }

  /**
   * Writes under `dir`, each beside then renamed, the segments whose entries are not exactly the
   * previous segment's: one with a new entry, or fewer entries (a file removed or not read).
   */
  write(dir: string, header: string, serialise: (file: string, entry: T) => string): void {
    for (const [segment, entries] of this.#segments.entries()) {
      if (!this.#changed[segment] && entries.size === this.#previousCounts[segment]) continue;
      const lines = [`${header}\n`];
      for (const [file, entry] of entries) lines.push(`${serialise(file, entry instanceof StoredEntry ? entry.entry : entry)}\n`);
      writeAtomically(dir, segmentName(segment), lines);
    }
  }
}

/**
 * Writes `parts` as `dir`/`name`: beside it, then renamed over it. Writes are grouped (a segment
 * holds thousands of lines; at a million listings the whole cache is longer than a string can
 * be), each from a string: a Buffer a line brought the collector round on the whole heap (at a
 * million listings, saving the cache took 241 s).
 */
export function writeAtomically(dir: string, name: string, parts: readonly string[]): void {
  const temporary = join(dir, `${name}.${process.pid}`);
  try {
    const fd = openSync(temporary, "w");
    try {
      for (let from = 0; from < parts.length; from += 4000) writeSync(fd, parts.slice(from, from + 4000).join(""));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(dir, name));
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Removes what a build stopped while writing the cache left (`name.pid`; a build still running keeps its own), and `obsolete` files. */
export function removeLeftovers(dir: string, obsolete: readonly string[]): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(/\.(\d+)$/.exec(name)?.[1]);
    if (obsolete.includes(name) || (Number.isSafeInteger(pid) && pid > 0 && !running(pid))) rmSync(join(dir, name), { force: true });
  }
}

/** Whether a process with this id is running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
