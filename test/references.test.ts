import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";

/**
 * The project cites only documents it holds: every `interface §N` in the code and the tests is a
 * section of docs/interface.md, and nothing cites the specification or the contract it was written
 * from, which live outside the repository.
 */

const ROOT = new URL("../", import.meta.url).pathname;
const FOLDERS = ["src", "build", "scripts", "bench", "test", "docs"];
const TOP_FILES = ["README.md", "content/README.md"];

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await files(path)));
    else if (/\.(ts|mts|mjs|js|sh|yml|yaml|md)$/.test(entry.name)) found.push(path);
  }
  return found;
}

test("every interface § cited in the code and the tests is a section of docs/interface.md, and no outside document is cited", async () => {
  const interfaceDoc = await readFile(join(ROOT, "docs/interface.md"), "utf8");
  const sections = new Set([...interfaceDoc.matchAll(/^## (\d+)\. /gm)].map((match) => match[1]));
  assert.deepEqual([...sections], ["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  const wrong: string[] = [];
  let cited = 0;
  for (const folder of FOLDERS) {
    for (const file of [...(await files(folder)), ...(folder === "docs" ? TOP_FILES : [])]) {
      const text = await readFile(join(ROOT, file), "utf8");
      for (const match of text.matchAll(/interface §(\d+)/g)) {
        cited += 1;
        if (!sections.has(match[1] ?? "")) wrong.push(`${file}: interface §${match[1]}`);
      }
      // This file names them, to forbid them.
      if (file === "test/references.test.ts") continue;
      for (const outside of ["contract §", "contract.md", "service-spec", "(spec, "])
        if (text.includes(outside)) wrong.push(`${file}: ${outside}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(cited > 50, `only ${cited} citations found`);
});

test("every document the code, the tests and the documents name by path is a file of the repository", async () => {
  const missing: string[] = [];
  let named = 0;
  for (const file of [...(await Promise.all(FOLDERS.map(files))).flat(), ...TOP_FILES]) {
    const text = await readFile(join(ROOT, file), "utf8");
    const paths = [
      // Not a URL's path (/docs/api/index.md), nor an example of a content file.
      ...[...text.matchAll(/(?<![\w/.-])((?:docs|bench|content|src|build|scripts|test)\/[\w./-]*\.md)\b/g)]
        .map((match) => match[1] ?? "")
        .filter((path) => !/^content\/(businesses|offerings)\//.test(path)),
      // A Markdown link to a document beside it, in a Markdown file.
      ...(file.endsWith(".md")
        ? [...text.matchAll(/\]\((?!https?:|#|mailto:|\/)([^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => join(file, "..", match[1] ?? ""))
        : []),
    ];
    for (const path of paths) {
      named += 1;
      if (
        !(await readFile(join(ROOT, path)).then(
          () => true,
          () => false,
        ))
      )
        missing.push(`${file}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(named > 20, `only ${named} documents named`);
});
