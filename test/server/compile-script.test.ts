import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { compiledIsCurrent } from "../../scripts/compile.mjs";

/** A checkout with a compiled server: sources and the compile's mark, each at its own time (seconds). */
function checkout(times: { source: number; tsconfig: number; mark?: number; serverJs?: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), "compile-script-"));
  mkdirSync(join(root, "src", "http"), { recursive: true });
  mkdirSync(join(root, "server"));
  const at = (path: string, seconds: number) => {
    writeFileSync(join(root, path), "");
    utimesSync(join(root, path), seconds, seconds);
  };
  at("src/server.ts", 1_000);
  at("src/http/rest-and-pages.ts", times.source);
  at("tsconfig.json", times.tsconfig);
  at("tsconfig.build.json", 1_000);
  if (times.serverJs !== false) at("server/server.js", 1_000);
  if (times.mark !== undefined) at("server/.compiled", times.mark);
  return root;
}

test("npm run serve starts a server compiled after every source at once, and compiles one older than a source first", () => {
  const cases = [
    { times: { source: 2_000, tsconfig: 1_000, mark: 3_000 }, current: true },
    // Compiled in the same instant as the last change: the compile read it.
    { times: { source: 3_000, tsconfig: 1_000, mark: 3_000 }, current: true },
    // A source in a folder of src/ saved after the compile began.
    { times: { source: 3_001, tsconfig: 1_000, mark: 3_000 }, current: false },
    { times: { source: 2_000, tsconfig: 4_000, mark: 3_000 }, current: false },
    // Never compiled by npm run compile, or its output gone.
    { times: { source: 2_000, tsconfig: 1_000 }, current: false },
    { times: { source: 2_000, tsconfig: 1_000, mark: 3_000, serverJs: false }, current: false },
  ];
  for (const { times, current } of cases) {
    const root = checkout(times);
    try {
      assert.equal(compiledIsCurrent(root), current, JSON.stringify(times));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
});

test("npm run serve runs a current compiled server in its own process: one Node.js start, no compile", () => {
  const root = checkout({ source: 2_000, tsconfig: 1_000, mark: 3_000 });
  try {
    mkdirSync(join(root, "scripts"));
    for (const script of ["serve.mjs", "compile.mjs"])
      copyFileSync(new URL(`../../scripts/${script}`, import.meta.url), join(root, "scripts", script));
    // The stand-in server says which process runs it; no TypeScript here, so a compile would fail.
    writeFileSync(join(root, "server", "server.js"), "console.log(process.pid);\n");
    utimesSync(join(root, "server", "server.js"), 1_000, 1_000);
    const run = spawnSync(process.execPath, ["scripts/serve.mjs"], { cwd: root, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${run.pid}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
