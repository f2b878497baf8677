import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { random } from "../../bench/generate.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, SAMPLE_CONTENT, tempDir } from "../helpers/snapshot.ts";

/**
 * Directory search answers on the sample content, byte for byte, as they were before the fast
 * search path replaced MiniSearch's scored search: each query's status and the SHA-256 of its
 * body are fixed in test/fixtures/golden/directory-answers.json. UPDATE_GOLDEN=1 rewrites the
 * file from the current code (only when a change of answers is intended).
 */

const GOLDEN = new URL("../fixtures/golden/directory-answers.json", import.meta.url).pathname;

const TERMS = [
  "p",
  "pl",
  "plumb",
  "plumbing",
  "PLUMBERS",
  "roof",
  "r",
  "s",
  "sch",
  "schäd",
  "schad",
  "o",
  "ob",
  "obrien",
  "o'brien",
  "O’Brien",
  "cafe",
  "café",
  "CAFÉ",
  "creme",
  "oko",
  "öko",
  "okö",
  "ss",
  "strasse",
  "heat",
  "heating",
  "24",
  "7",
  "b.",
  "&",
  "co",
  "gmbh",
  "and",
  "the",
  "elec",
  "electrical",
  "lock",
  "zz",
  "x",
  "smith",
  "müller",
  "muller",
  "mueller",
  "dach",
  "d",
  "solar",
  "win",
];
const LOCATIONS = [
  "leeds",
  "lee",
  "ls1",
  "l",
  "london",
  "lon",
  "münchen",
  "munchen",
  "county",
  "co",
  "bt7",
  "d02",
  "1",
  "10",
  "a",
  "york",
  "west yorkshire",
  "zzz",
];
const COUNTRIES = ["gb", "GB", "de", "ie", "fr", "ca", "au", "nz", "us"];

/** A fixed list of queries: every single parameter on its own, then a seeded mix of all of them. */
function queries(): string[] {
  const list: string[] = ["", "limit=25", "limit=1", "offset=10", "offset=290", "offset=300", "offset=1000", "limit=25&offset=975"];
  for (const term of TERMS) list.push(`q=${encodeURIComponent(term)}`);
  for (const location of LOCATIONS) list.push(`location=${encodeURIComponent(location)}`);
  for (const country of COUNTRIES) list.push(`country=${country}`);
  const next = random(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  for (let i = 0; i < 400; i += 1) {
    const params = new URLSearchParams();
    const terms = Math.floor(next() * 4);
    if (terms > 0) params.set("q", Array.from({ length: terms }, () => pick(TERMS)).join(" "));
    if (next() < 0.4) params.set("location", pick(LOCATIONS));
    if (next() < 0.4) params.set("country", pick(COUNTRIES));
    if (next() < 0.3) params.set("limit", String(1 + Math.floor(next() * 25)));
    if (next() < 0.3) params.set("offset", String(pick([0, 1, 5, 10, 20, 50, 100, 999, 1000])));
    list.push(params.toString());
  }
  return list;
}

let server: RunningServer;
let cleanup: () => Promise<void>;

before(async () => {
  const work = await tempDir();
  cleanup = work.remove;
  await buildSnapshot(SAMPLE_CONTENT, join(work.path, "dist"));
  server = await startServer(join(work.path, "dist"), { CACHE_SECONDS: "0" });
});
after(async () => {
  await server.close();
  await cleanup();
});

test("directory search answers on the sample content are byte-identical to the recorded ones", async () => {
  const answers: Record<string, string> = {};
  for (const query of queries()) {
    const response = await fetch(`${server.url}/api/directory${query === "" ? "" : `?${query}`}`);
    const body = Buffer.from(await response.arrayBuffer());
    answers[query] = `${response.status} ${createHash("sha256").update(body).digest("hex")}`;
  }
  if (process.env.UPDATE_GOLDEN === "1") {
    await writeFile(GOLDEN, `${JSON.stringify(answers, null, 2)}\n`);
    return;
  }
  const recorded = JSON.parse(await readFile(GOLDEN, "utf8")) as Record<string, string>;
  assert.equal(Object.keys(answers).length, Object.keys(recorded).length);
  const different = Object.keys(answers).filter((query) => answers[query] !== recorded[query]);
  assert.deepEqual(different, [], "queries whose answer changed");
});
