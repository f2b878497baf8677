import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildCli } from "../helpers/build-cli.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

/** The services of the basic fixture's listings, as a services.yml lists them. */
export const BASIC_SERVICES = ["Plumbing", "Electrical", "Handyman", "Landscaping", "Locksmith", "Painting & Decorating", "Roofing"];

/**
 * `npm run check` of the basic fixture copied to `dir`, each file named in `edits` rewritten
 * (one the fixture does not have, such as services.yml, written from nothing): it must fail, and
 * its lines are returned with each file's path from `dir`.
 */
export async function checkEdited(dir: string, edits: Record<string, (text: string) => string>): Promise<string[]> {
  await cp(`${FIXTURES}basic`, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const text = await readFile(join(dir, file), "utf8").catch(() => "");
    await writeFile(join(dir, file), edit(text));
  }
  const result = await buildCli(["--check"], dir, `${dir}-dist`);
  assert.equal(result.code, 1);
  return result.stderr
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(`${dir}/`, ""));
}
