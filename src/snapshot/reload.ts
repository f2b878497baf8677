import { stat } from "node:fs/promises";
import { snapshotPath } from "./files.ts";
import { loadSnapshot } from "./load.ts";
import type { Snapshot } from "./types.ts";

/** Where reload events are reported (a pino logger fits). */
export interface ReloadLog {
  info(message: string): void;
  error(message: string): void;
}

export interface LiveSnapshotOptions {
  distDir: string;
  /** The snapshot loaded at start. */
  initial: Snapshot;
  log: ReloadLog;
  /** How often the manifest is looked at, in ms; a rebuilt snapshot is served within about this plus its load time. */
  intervalMs?: number;
  /** Loads a snapshot (tests may slow it down); loadSnapshot by default. */
  load?: (distDir: string) => Promise<Snapshot>;
}

/** What identifies a manifest file on disk: a build's swap, or a copy over it, changes one of these. */
async function signature(path: string): Promise<string | null> {
  try {
    const { ino, size, mtimeMs } = await stat(path);
    return `${ino}:${size}:${mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * The snapshot being served, replaced when a new one is built into `distDir` (contract §3).
 * Every `intervalMs` the manifest's identity (inode, size, mtime) is compared with the last one
 * seen; when it changed, the new snapshot is loaded and checked completely beside the old one,
 * then swapped in with one assignment, so a request sees one snapshot or the other, never a mix,
 * and none fails. A snapshot that does not load, or whose directory is unusable while the
 * current one's is fine, is rejected with an error log line and the current one keeps serving.
 * A server whose directory was unavailable takes the first good build.
 */
export class LiveSnapshot {
  readonly #distDir: string;
  readonly #log: ReloadLog;
  readonly #intervalMs: number;
  readonly #load: (distDir: string) => Promise<Snapshot>;
  #current: Snapshot;
  #seen: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #checking: Promise<void> | null = null;

  constructor({ distDir, initial, log, intervalMs = 1000, load = loadSnapshot }: LiveSnapshotOptions) {
    this.#distDir = distDir;
    this.#current = initial;
    this.#log = log;
    this.#intervalMs = intervalMs;
    this.#load = load;
  }

  /** The snapshot to answer from now. */
  current(): Snapshot {
    return this.#current;
  }

  /** Starts watching; the timer does not keep the process alive. */
  async start(): Promise<void> {
    this.#seen = await signature(snapshotPath(this.#distDir, "manifest"));
    this.#timer = setInterval(() => void this.check(), this.#intervalMs);
    this.#timer.unref();
  }

  /** Stops watching and waits for a check under way. */
  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#checking;
  }

  /** Looks once for a new snapshot and loads it if there is one; never throws. */
  check(): Promise<void> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #check(): Promise<void> {
    const manifest = snapshotPath(this.#distDir, "manifest");
    const before = await signature(manifest);
    // Missing means a build is swapping folders right now: look again next time.
    if (before === null || before === this.#seen) return;
    let next: Snapshot;
    try {
      next = await this.#load(this.#distDir);
    } catch (error) {
      // Replaced again while loading: the files read may be from two builds. Try again next time.
      if ((await signature(manifest)) !== before) return;
      this.#seen = before;
      this.#log.error(`new snapshot rejected, still serving ${this.#current.manifest.version}: ${(error as Error).message}`);
      return;
    }
    if ((await signature(manifest)) !== before) return;
    this.#seen = before;
    if (next.directoryProblem !== null && this.#current.directoryProblem === null) {
      this.#log.error(
        `new snapshot ${next.manifest.version} rejected, still serving ${this.#current.manifest.version}: its directory is unusable: ${next.directoryProblem}`,
      );
      return;
    }
    const previous = this.#current.manifest.version;
    this.#current = next;
    if (next.directoryProblem !== null) {
      this.#log.error(`snapshot ${next.manifest.version} loaded, but the directory is still unavailable: ${next.directoryProblem}`);
    } else {
      this.#log.info(`snapshot ${next.manifest.version} (built ${next.manifest.builtAt}) now served, replacing ${previous}`);
    }
  }
}
