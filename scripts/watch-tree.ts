/**
 * Tells `onChange` the path of whatever is created, changed, renamed or removed anywhere under
 * `root`; a folder's own path when the system does not say which entry changed, and for a folder
 * found after the start or that could not be watched (whatever is in it may have changed unseen).
 * One plain (not recursive) watcher per folder, folders found again on every change to a folder
 * (made, removed or renamed; a file's change lists none: at 100,000 listings, listing every
 * folder's entries took 70-90 ms, two or three times a save): Node.js 20's
 * recursive fs.watch on Linux lost a file once an editor had saved it by renaming a new file over
 * it (measured: after one such save, neither the next save nor an append to the file was
 * reported), and a folder's own watcher reports every change to its entries.
 */
import { type Dirent, type FSWatcher, lstatSync, readdirSync, statSync, watch } from "node:fs";
import { join } from "node:path";

/** The folders under `root`, itself included (none if it is gone). */
function folders(root: string): string[] {
  const found = [root];
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (entry.isDirectory()) found.push(...folders(join(root, entry.name)));
  }
  return found;
}

/** A folder's inode, or -1 when it cannot be read: a folder removed and made again under the same name has another. */
function inode(folder: string): number {
  try {
    return statSync(folder).ino;
  } catch {
    return -1;
  }
}

/** Whether `path` is a folder now (not a link to one, as folders() finds them). */
function isFolder(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

export function watchTree(root: string, onChange: (path: string) => void): { close(): void } {
  const watchers = new Map<string, { readonly watcher: FSWatcher; readonly inode: number }>();
  let closed = false;
  /** Watches the folders found now; with `report`, tells of each one not watched before (its entries may have changed unseen). */
  const update = (report: boolean) => {
    // An event already queued when close() ran must not watch again.
    if (closed) return;
    const now = new Set(folders(root));
    for (const [folder, { watcher, inode: watched }] of watchers) {
      if (now.has(folder) && inode(folder) === watched) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of now) {
      if (watchers.has(folder)) continue;
      if (report) onChange(folder);
      try {
        const watched = inode(folder);
        const watcher = watch(folder, (_event, name) => {
          if (closed) return;
          const path = name === null ? folder : join(folder, String(name));
          if (name === null || watchers.has(path) || isFolder(path)) update(true);
          onChange(path);
        }).on("error", () => {
          if (closed) return;
          watchers.delete(folder);
          onChange(folder);
          update(true);
        });
        watchers.set(folder, { watcher, inode: watched });
      } catch {
        // Removed since it was listed (the change that removed it lists the folders again), or not watchable: told of above.
      }
    }
  };
  update(false);
  return {
    close() {
      closed = true;
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
