import { EventEmitter } from "node:events";
import { stat } from "node:fs/promises";
import { snapshotPath } from "./files.ts";
import { retireListingStore } from "./listings-on-disk.ts";
import { type LoadOptions, loadSnapshot } from "./load.ts";
import type { Snapshot } from "./types.ts";
import { type ServedView, SnapshotView } from "./view.ts";

/** Where reload events are reported (a pino logger fits). */
export interface ReloadLog {
  info(message: string): void;
  error(message: string): void;
}

/** How often the manifest is looked at: a rebuilt snapshot is served within about this plus its load time. */
const INTERVAL_MS = 1000;

/**
 * The message a parent process sends over IPC once it has built a snapshot (`npm run dev` does,
 * after each build): the server looks at once instead of at its next check. Not a signal: every
 * one free in Node.js stops the server (close-with-grace) or starts its inspector (SIGUSR1).
 */
export const SNAPSHOT_BUILT_MESSAGE = "snapshot built";

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
 * A snapshot no longer served (or never to be): its listings file, when read from disk, is
 * given back now rather than when V8 collects it.
 */
function retire(snapshot: Snapshot): void {
  if (snapshot.directory !== null) retireListingStore(snapshot.directory.listings);
}

/**
 * The snapshot being served, replaced when a new one is built into `distDir` (interface §3).
 * Every second the manifest's identity (inode, size, mtime) is compared with the last one
 * seen; when it changed, the new snapshot is loaded and checked completely beside the old one,
 * then swapped in with one assignment, so a request sees one snapshot or the other, never a mix,
 * and none fails. A snapshot that does not load, or whose directory is unusable while the
 * current one's is fine, is rejected with an error log line and the current one keeps serving.
 * A server whose directory was unavailable takes the first good build, and a server started
 * before any build (no manifest in `distDir` yet: a volume filled after start) serves nothing
 * until the first one lands.
 *
 * It emits 'loading' when a check has seen a changed manifest and starts loading the snapshot:
 * the moment at which a test replaces dist/ again to see a load from a replaced dist/ dropped;
 * 'served' when a new snapshot is served (with the one it replaces, null for the first of a
 * server started without one), and 'rejected' when a new one is refused.
 */
export class LiveSnapshot
  extends EventEmitter<{ loading: []; served: [snapshot: Snapshot, previous: Snapshot | null]; rejected: [] }>
  implements ServedView
{
  readonly #distDir: string;
  readonly #options: LoadOptions;
  /** The snapshot served, as its view: a new one, with nothing derived yet, for each snapshot swapped in. */
  #current: SnapshotView | null;
  #seen: string | null;
  #log: ReloadLog | null = null;
  #timer: NodeJS.Timeout | null = null;
  #checking: Promise<void> | null = null;
  /** Whether check() was asked while a check ran. */
  #again = false;
  #stopped = false;

  private constructor(distDir: string, initial: Snapshot | null, seen: string | null, options: LoadOptions) {
    super();
    this.#distDir = distDir;
    this.#options = options;
    this.#current = initial === null ? null : new SnapshotView(initial);
    this.#seen = seen;
  }

  /**
   * Loads the snapshot in `distDir`. The manifest's identity is taken before loading, so a build
   * that lands while the first load runs is picked up by the first check.
   */
  static async open(distDir: string, options: LoadOptions = {}): Promise<LiveSnapshot> {
    const seen = await signature(snapshotPath(distDir, "manifest"));
    return new LiveSnapshot(distDir, await loadSnapshot(distDir, options), seen, options);
  }

  /**
   * Like open, but when `distDir` holds no snapshot yet (no manifest), starts with none and
   * loads the first one that lands. A snapshot that is there but cannot be served still throws.
   */
  static async openOrAwait(distDir: string, options: LoadOptions = {}): Promise<LiveSnapshot> {
    if ((await signature(snapshotPath(distDir, "manifest"))) === null) return new LiveSnapshot(distDir, null, null, options);
    return LiveSnapshot.open(distDir, options);
  }

  /** The view to answer from now; null until the first snapshot has loaded. */
  current(): SnapshotView | null {
    return this.#current;
  }

  /** Starts watching, reporting to `log`; the timer does not keep the process alive. */
  start(log: ReloadLog): void {
    this.#log = log;
    this.#timer = setInterval(() => void this.check(), INTERVAL_MS);
    this.#timer.unref();
  }

  /** Stops watching and waits for a check under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#checking;
  }

  /**
   * Looks for a new snapshot and loads it if there is one; never throws. Asked while a check runs
   * (told of a build while loading the one before, whose load may then give up on a dist/
   * replaced under it), it looks again once that check ends, not at the next second's.
   */
  check(): Promise<void> {
    if (this.#checking !== null) {
      this.#again = true;
      return this.#checking;
    }
    this.#checking = (async () => {
      do {
        this.#again = false;
        await this.#check();
      } while (this.#again && !this.#stopped);
    })().finally(() => {
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
    this.emit("loading");
    try {
      next = await loadSnapshot(this.#distDir, { ...this.#options, served: this.#current?.snapshot ?? null });
    } catch (error) {
      // Replaced again while loading: the files read may be from two builds. Try again next time.
      if ((await signature(manifest)) !== before) return;
      this.#seen = before;
      this.emit("rejected");
      this.#log?.error(
        `new snapshot rejected, still serving ${this.#current?.snapshot.manifest.version ?? "none"}: ${(error as Error).message}`,
      );
      return;
    }
    if ((await signature(manifest)) !== before) {
      // Loaded, but from a dist/ already replaced again: not served, so its file is not kept open.
      retire(next);
      return;
    }
    this.#seen = before;
    const replaced = this.#current?.snapshot ?? null;
    if (replaced === null) {
      this.#current = new SnapshotView(next);
      this.emit("served", next, null);
      this.#log?.info(`snapshot ${next.manifest.version} (built ${next.manifest.builtAt}) now served, the first since start`);
      return;
    }
    if (next.directoryProblem !== null && replaced.directoryProblem === null) {
      this.emit("rejected");
      this.#log?.error(
        `new snapshot ${next.manifest.version} rejected, still serving ${replaced.manifest.version}: its directory is unusable: ${next.directoryProblem}`,
      );
      return;
    }
    const previous = replaced.manifest.version;
    this.#current = new SnapshotView(next);
    retire(replaced);
    this.emit("served", next, replaced);
    if (next.directoryProblem !== null) {
      this.#log?.error(`snapshot ${next.manifest.version} loaded, but the directory is still unavailable: ${next.directoryProblem}`);
    } else {
      this.#log?.info(`snapshot ${next.manifest.version} (built ${next.manifest.builtAt}) now served, replacing ${previous}`);
    }
  }
}
