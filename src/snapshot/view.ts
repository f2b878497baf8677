import type { Snapshot } from "./types.ts";

/**
 * Something derived from a snapshot and kept for its life: search sets, facet columns, cards,
 * documents, the answer cache. Each layer declares the parts it uses, where it uses them (core
 * its search sets, render its cards, http its documents and answers), and makes each from the
 * view the first time it is asked for.
 */
export interface Part<T> {
  /** What it is, for a reader of a heap snapshot. */
  readonly name: string;
  make(view: SnapshotView): T;
}

/**
 * One snapshot as it is served, with everything derived from it: made when the snapshot is
 * swapped in (src/snapshot/reload.ts), with no part made yet. Every part is made on first use and
 * dropped with the view, so a new snapshot starts from nothing and can never be answered from
 * an older one's sets, pages or answers. Nothing derived from a snapshot is kept anywhere else.
 */
export class SnapshotView {
  readonly snapshot: Snapshot;
  readonly #parts = new Map<Part<unknown>, unknown>();

  constructor(snapshot: Snapshot) {
    this.snapshot = snapshot;
  }

  /** The view's `part`, made now if this is the first time it is asked for. */
  get<T>(part: Part<T>): T {
    const value = this.#parts.get(part);
    if (value !== undefined || this.#parts.has(part)) return value as T;
    const made = part.make(this);
    this.#parts.set(part, made);
    return made;
  }
}

/** Where the view served now comes from: the live snapshot, or a test's fixed one. */
export interface ServedView {
  /** The view to answer from now; null until the first snapshot has loaded. */
  current(): SnapshotView | null;
}
