import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * The editors' form is `npm run dev`'s alone: the server that `npm run serve` and the container run
 * has none of it, and the container and a production install hold nothing of Decap CMS.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const text = (file: string) => readFile(join(ROOT, file), "utf8");

describe("the production server", () => {
  let work: { path: string; remove: () => Promise<void> };
  let server: ServerProcess;
  before(async () => {
    work = await tempDir("admin-production-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    server = await startServerProcess(join(work.path, "dist"));
  });
  after(async () => {
    server.child.kill("SIGTERM");
    assert.equal(await server.exited, 0);
    await work.remove();
  });

  test("answers 404 for /admin/ and /admin/config.yml, and the snapshot holds nothing of the form", async () => {
    const answers: [string, number, string | null][] = [];
    for (const path of ["/admin/", "/admin", "/admin/config.yml", "/admin/decap-cms.js", "/admin/admin.js"]) {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      answers.push([path, response.status, response.headers.get("location")]);
    }
    assert.deepEqual(answers, [
      // Any page's path with a trailing slash is sent to the path without it (interface §7), which is a 404.
      ["/admin/", 308, "/admin"],
      ["/admin", 404, null],
      ["/admin/config.yml", 404, null],
      ["/admin/decap-cms.js", 404, null],
      ["/admin/admin.js", 404, null],
    ]);
    assert.equal((await fetch(`${server.url}/admin/`)).status, 404);
    assert.deepEqual(
      (await readdir(join(work.path, "dist"))).filter((name) => /admin|decap/i.test(name)),
      [],
    );
  });
});

test("the container's runtime and a production install hold nothing of Decap CMS: it is a dev dependency, and only server/ and dist/ are copied", async () => {
  const dockerfile = await text("Dockerfile");
  const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
  assert.deepEqual(
    [...runtime.matchAll(/^COPY (.+)$/gm)].map((match) => match[1]),
    ["package.json package-lock.json ./", "--from=build /app/server ./server", "--from=build /app/dist ./dist"],
  );
  assert.match(runtime, /^RUN npm ci --omit=dev /m);
  // The server is compiled from src/ alone, and nothing in src/ names the form.
  assert.deepEqual((JSON.parse(await text("tsconfig.build.json")) as { include: string[] }).include, ["src"]);
  const naming: string[] = [];
  for (const file of await readdir(join(ROOT, "src"), { recursive: true })) {
    if (/\.(ts|mjs)$/.test(file) && /decap|dev-admin|build\/admin/i.test(await text(join("src", file)))) naming.push(file);
  }
  assert.deepEqual(naming, []);
  const packageJson = JSON.parse(await text("package.json")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  assert.deepEqual(
    [
      Object.keys(packageJson.dependencies).filter((name) => name.startsWith("decap")),
      Object.keys(packageJson.devDependencies).filter((name) => name.startsWith("decap")),
    ],
    [[], ["decap-cms", "decap-server"]],
  );
  const lock = JSON.parse(await text("package-lock.json")) as { packages: Record<string, { dev?: boolean }> };
  // Decap's packages, and the packages installed inside theirs.
  const decap = Object.entries(lock.packages).filter(([path]) => path.includes("node_modules/decap"));
  assert.ok(decap.length > 2, `${decap.length} packages of Decap's in the lock file`);
  assert.deepEqual(
    decap.filter(([, entry]) => entry.dev !== true).map(([path]) => path),
    [],
    "installed by npm ci --omit=dev",
  );
});
