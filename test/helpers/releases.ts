import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readContent } from "../../build/content.ts";
import { deriveModel } from "../../build/derive.ts";
import { type WrittenSnapshot, writeSnapshot } from "../../build/emit.ts";
import { mcpAppHtml } from "../../build/mcp-app.ts";
import { validateContent } from "../../build/validate.ts";
import type { ReleasesFile } from "../../src/snapshot/releases.ts";
import { listingFilesOf } from "./snapshot-files.ts";

/** A directory's records as a client keeps them: each listing's JSON line by id. */
export type Records = Map<string, string>;

/** The records of the snapshot in `dist` (its data/businesses.ndjson). */
export async function recordsOf(dist: string): Promise<Records> {
  const text = await readFile(join(dist, "data", "businesses.ndjson"), "utf8");
  return recordsOfLines(text);
}

/** Records from NDJSON lines of listings. */
function recordsOfLines(text: string): Records {
  const records: Records = new Map();
  for (const line of text.split("\n")) {
    if (line !== "") records.set((JSON.parse(line) as { id: string }).id, line);
  }
  return records;
}

/** A changes file's or a feed answer's lines after the header, as parsed. */
type ChangeLine = { op: "upsert"; business: { id: string } } | { op: "remove"; id: string };

/** `records` with NDJSON `changes` applied, as a client applies them: an upsert replaces or adds, a removal deletes. */
export function applyChanges(records: Records, changes: string): Records {
  const applied = new Map(records);
  for (const line of changes.split("\n")) {
    if (line === "") continue;
    const change = JSON.parse(line) as ChangeLine;
    if (change.op === "upsert") applied.set(change.business.id, JSON.stringify(change.business));
    else applied.delete(change.id);
  }
  return applied;
}

/** The first line of a feed answer, and the rest (its changes). */
export function feedParts(body: string): { header: unknown; changes: string } {
  const newline = body.indexOf("\n");
  return { header: JSON.parse(body.slice(0, newline)), changes: body.slice(newline + 1) };
}

/** Records as a sorted list, for comparing two directories with a readable difference. */
export function sorted(records: Records): [string, string][] {
  return [...records].sort(([a], [b]) => (a < b ? -1 : 1));
}

export async function releasesOf(dist: string): Promise<ReleasesFile> {
  return JSON.parse(await readFile(join(dist, "data", "releases.json"), "utf8")) as ReleasesFile;
}

/** The MCP App's document, bundled once for every in-process build of a test file (it depends on the code alone). */
let mcpApp: Promise<string> | undefined;

/** Builds `content` into `dist` in this process, as `npm run build` does, at `builtAt`; throws on content errors. */
export async function buildAt(content: string, dist: string, builtAt: Date, previousSnapshot?: string): Promise<WrittenSnapshot> {
  const validation = validateContent(readContent(content));
  if (!validation.ok) throw new Error(validation.problems.map((p) => `${p.file}: ${p.field}: ${p.message}`).join("\n"));
  mcpApp ??= mcpAppHtml();
  const app = mcpApp;
  return writeSnapshot(dist, deriveModel(validation.content, "https://directory.example"), {
    builtAt,
    mcpApp: () => app,
    previousSnapshot,
  });
}

/** The approved listings' files of a content folder, sorted. */
export async function approvedFiles(content: string): Promise<string[]> {
  const approved: string[] = [];
  for (const file of await listingFilesOf(content)) if (/^status: approved$/m.test(await readFile(file, "utf8"))) approved.push(file);
  assert.ok(approved.length > 0, `no approved listing in ${content}`);
  return approved;
}
