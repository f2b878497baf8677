import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { watchTree } from "../../scripts/watch-tree.ts";

// Each step waits for the watcher to name the file it changed: a change missed fails by the timeout.
test("npm run dev sees every save under content/: renamed over twice, appended, in a new folder, removed, in a folder made again", {
  timeout: 30_000,
}, async () => {
  const root = mkdtempSync(join(tmpdir(), "watch-tree-"));
  mkdirSync(join(root, "businesses", "gb"), { recursive: true });
  const file = join(root, "businesses", "gb", "a.md");
  writeFileSync(file, "one");
  let expected = "";
  let seen: (() => void) | undefined;
  const watcher = watchTree(root, (path) => {
    if (path === expected) seen?.();
  });
  /** Makes a change and waits for the watcher to report `path`. */
  const reported = async (path: string, change: () => void) => {
    expected = path;
    const reportedPath = new Promise<void>((resolve) => {
      seen = resolve;
    });
    change();
    await reportedPath;
  };
  const saveByRename = (path: string, text: string) => {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  };
  try {
    const other = join(root, "businesses", "nz", "b.md");
    await reported(file, () => saveByRename(file, "two"));
    await reported(file, () => saveByRename(file, "three"));
    await reported(file, () => appendFileSync(file, " and four"));
    await reported(join(root, "businesses", "nz"), () => mkdirSync(join(root, "businesses", "nz")));
    await reported(other, () => writeFileSync(other, "five"));
    await reported(other, () => appendFileSync(other, " and six"));
    await reported(file, () => rmSync(file));
    // A folder removed and made again under the same name is a new folder, watched anew.
    const nz = join(root, "businesses", "nz");
    await reported(nz, () => {
      rmSync(nz, { recursive: true });
      mkdirSync(nz);
    });
    await reported(other, () => writeFileSync(other, "seven"));
  } finally {
    watcher.close();
    rmSync(root, { recursive: true, force: true });
  }
});
