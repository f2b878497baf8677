import assert from "node:assert/strict";
import { cp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { generateContent } from "../../bench/generate.ts";
import { changesSince } from "../../src/core/changes.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
import { applyChanges, buildAt, feedParts, type Records, recordsOf, releasesOf, sorted } from "../helpers/releases.ts";
import { tempDir } from "../helpers/snapshot.ts";
import { listingFilesOf } from "../helpers/snapshot-files.ts";

/**
 * Over random sequences of edits (descriptions, additions, deletions, status changes, renames,
 * builds with nothing changed, and the content put back as it was after an earlier build), every
 * release's changes file turns its previous release's records into its own, and the feed since
 * any release the history holds turns that release's records into the current snapshot's.
 */

type Edit =
  | { kind: "describe" | "add" | "delete" | "rename"; pick: number }
  | { kind: "status"; pick: number; status: "approved" | "pending" | "suspended" }
  | { kind: "nothing" }
  | { kind: "restore"; pick: number };

const EDIT: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom("describe", "add", "delete", "rename"), pick: fc.nat() }),
  fc.record({ kind: fc.constant("status"), pick: fc.nat(), status: fc.constantFrom("approved", "pending", "suspended") }),
  fc.record({ kind: fc.constant("nothing") }),
  fc.record({ kind: fc.constant("restore"), pick: fc.nat() }),
) as fc.Arbitrary<Edit>;

let work: { path: string; remove: () => Promise<void> };
let base: string;

before(async () => {
  work = await tempDir();
  base = join(work.path, "base");
  await generateContent(base, 10, 23);
});
after(async () => {
  await work.remove();
});

/** Every content file's text by path: what `restore` puts back. */
async function contentState(content: string): Promise<Map<string, string>> {
  const files = await listingFilesOf(content);
  return new Map(await Promise.all(files.map(async (file) => [file, await readFile(file, "utf8")] as const)));
}

/** Makes `edit` in `content`; `n` numbers what it writes, `states` are the contents after each build so far. */
async function apply(content: string, edit: Edit, n: number, states: readonly Map<string, string>[]): Promise<void> {
  const files = await listingFilesOf(content);
  if (edit.kind === "nothing") return;
  if (edit.kind === "restore") {
    const state = states[edit.pick % states.length] as Map<string, string>;
    for (const file of files) if (!state.has(file)) await rm(file);
    for (const [file, text] of state) await writeFile(file, text);
    return;
  }
  const file = files[edit.pick % files.length] as string;
  const text = await readFile(file, "utf8");
  if (edit.kind === "describe") await writeFile(file, text.replace(/\n---\n/, `\n---\nEdit ${n}. `));
  else if (edit.kind === "status") await writeFile(file, text.replace(/^status: .*$/m, `status: ${edit.status}`));
  else if (edit.kind === "rename") await rename(file, join(dirname(file), `${basename(file, ".md")}-r${n}.md`));
  else if (edit.kind === "delete" && files.length > 1) await rm(file);
  else if (edit.kind === "add") {
    const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const copy = text
      .replace(/^id: .*$/m, `id: "${id}"`)
      .replace(/^name: .*$/m, `name: "Added ${n}"`)
      .replace(/^status: .*$/m, "status: approved");
    await writeFile(join(dirname(file), `added-${n}.md`), copy);
  }
}

test("the changes files and the feed since any release kept turn its records into the current snapshot's", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(EDIT, { minLength: 1, maxLength: 6 }), async (edits) => {
      run += 1;
      const content = join(work.path, `content-${run}`);
      const dist = join(work.path, `dist-${run}`);
      await cp(base, content, { recursive: true });
      const recordsByVersion = new Map<string, Records>();
      const states: Map<string, string>[] = [];
      const builtAt = (step: number) => new Date(Date.UTC(2026, 0, 1, 0, run, step));
      const build = async (step: number) => {
        await buildAt(content, dist, builtAt(step));
        recordsByVersion.set((await releasesOf(dist)).current, await recordsOf(dist));
        states.push(await contentState(content));
      };
      try {
        await build(0);
        for (const [step, edit] of edits.entries()) {
          await apply(content, edit, run * 100 + step, states);
          await build(step + 1);
        }
        const current = await recordsOf(dist);
        const { releases } = await releasesOf(dist);
        for (const release of releases) {
          if (release.previous === null) continue;
          const changes = await readFile(join(dist, "data", "changes", `${release.version}.ndjson`), "utf8");
          const previous = recordsByVersion.get(release.previous) as Records;
          assert.deepEqual(sorted(applyChanges(previous, changes)), sorted(recordsByVersion.get(release.version) as Records));
        }
        const view = new SnapshotView(await loadSnapshot(dist));
        for (const { version } of releases) {
          const { header, changes } = feedParts((await changesSince(view, version)).toString("utf8"));
          assert.equal((header as { to: string }).to, releases[0]?.version);
          assert.deepEqual(sorted(applyChanges(recordsByVersion.get(version) as Records, changes)), sorted(current), version);
        }
      } finally {
        await rm(content, { recursive: true, force: true });
        await rm(dist, { recursive: true, force: true });
      }
    }),
    { numRuns: 15 },
  );
});
