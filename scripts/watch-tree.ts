/**
 * Tells `onChange` the path of whatever is created, changed, renamed or removed anywhere under
 * `root` (the folder's own path when the system does not say which entry changed).
 * One plain (not recursive) watcher per folder, folders found again on every change: Node.js 20's
 * recursive fs.watch on Linux lost a file once an editor had saved it by renaming a new file over
 * it (measured: after one such save, neither the next save nor an append to the file was
 * reported), and a folder's own watcher reports every change to its entries.
 */
import { type Dirent, type FSWatcher, readdirSync, watch } from "node:fs";
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

export function watchTree(root: string, onChange: (path: string) => void): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  const update = () => {
    const now = new Set(folders(root));
    for (const [folder, watcher] of watchers) {
      if (now.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of now) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, (_event, name) => {
          update();
          onChange(name === null ? folder : join(folder, String(name)));
        }).on("error", () => watchers.delete(folder));
        watchers.set(folder, watcher);
      } catch {
        // Removed since it was listed: the change that removed it lists the folders again.
      }
    }
  };
  update();
  return {
    close() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
