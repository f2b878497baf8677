import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { access, cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildCli } from "../helpers/build-cli.ts";
import { tempDir } from "../helpers/snapshot.ts";

/** Runs the build CLI as `npm run build` does, with the given content and dist folders. */
const cli = buildCli;
const ROOT = new URL("../../", import.meta.url).pathname;

/** Every file below `dir` with a hash of its bytes, to prove a folder did not change. */
async function treeDigest(dir: string): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    digest[relative(dir, path)] = createHash("sha256")
      .update(await readFile(path))
      .digest("hex");
  }
  return digest;
}

/**
 * Every error of the invalid fixture at the line and column of the key or value at fault (a
 * file-name error at the file's first line, a broken YAML at the line its parser stopped on, a
 * description that is too long where it goes over), then the count.
 */
const INVALID_REPORT = [
  "test/fixtures/invalid/businesses/Bad_Slug.md:1:1: (file name): must be lower-case letters, digits and hyphens, starting with a letter or digit",
  'test/fixtures/invalid/businesses/b/dup-slug.md:1:1: (file name): slug "dup-slug" is already used by businesses/a/dup-slug.md',
  "test/fixtures/invalid/businesses/bad-country.md:10:12: location.country: must be a two-letter upper-case ISO 3166-1 code such as GB",
  "test/fixtures/invalid/businesses/bad-status.md:12:9: status: must be one of approved, pending, rejected, suspended",
  "test/fixtures/invalid/businesses/bad-url.md:11:11: quoteUrl: must be an absolute http: or https: URL",
  "test/fixtures/invalid/businesses/bad-uuid.md:2:5: id: must be a UUID such as 1b4e28ba-2fa1-41d2-883f-0016d3cca427",
  "test/fixtures/invalid/businesses/broken-yaml.md:3:1: (front matter): is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
  "test/fixtures/invalid/businesses/empty-body.md:14:1: (body): must hold the listing's description",
  "test/fixtures/invalid/businesses/missing-field.md:2:1: service: is required",
  "test/fixtures/invalid/businesses/numeric-postcode.md:9:15: location.postalCode: must be a string (put it in quotes)",
  "test/fixtures/invalid/businesses/too-long.md:14:3001: (body): is 3001 characters; the description may have at most 3000",
  "test/fixtures/invalid/businesses/uk-country.md:10:12: location.country: must be a two-letter upper-case ISO 3166-1 code such as GB; UK is not one: United Kingdom's is GB",
  "test/fixtures/invalid/businesses/unknown-country.md:10:12: location.country: must be a two-letter upper-case ISO 3166-1 code such as GB",
  "test/fixtures/invalid/businesses/unknown-key.md:13:1: phone: is not a known key (check its spelling)",
  "test/fixtures/invalid/businesses/valid-one.md:2:5: id: is already used by businesses/dup-id.md",
  "test/fixtures/invalid: 15 content errors; nothing was written.",
];

/** The same errors as GitHub Actions annotations: `npm run check -- --format github`. */
const INVALID_ANNOTATIONS = [
  "::error file=test/fixtures/invalid/businesses/Bad_Slug.md,line=1,col=1,title=(file name)::must be lower-case letters, digits and hyphens, starting with a letter or digit",
  '::error file=test/fixtures/invalid/businesses/b/dup-slug.md,line=1,col=1,title=(file name)::slug "dup-slug" is already used by businesses/a/dup-slug.md',
  "::error file=test/fixtures/invalid/businesses/bad-country.md,line=10,col=12,title=location.country::must be a two-letter upper-case ISO 3166-1 code such as GB",
  "::error file=test/fixtures/invalid/businesses/bad-status.md,line=12,col=9,title=status::must be one of approved, pending, rejected, suspended",
  "::error file=test/fixtures/invalid/businesses/bad-url.md,line=11,col=11,title=quoteUrl::must be an absolute http: or https: URL",
  "::error file=test/fixtures/invalid/businesses/bad-uuid.md,line=2,col=5,title=id::must be a UUID such as 1b4e28ba-2fa1-41d2-883f-0016d3cca427",
  "::error file=test/fixtures/invalid/businesses/broken-yaml.md,line=3,col=1,title=(front matter)::is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
  "::error file=test/fixtures/invalid/businesses/empty-body.md,line=14,col=1,title=(body)::must hold the listing's description",
  "::error file=test/fixtures/invalid/businesses/missing-field.md,line=2,col=1,title=service::is required",
  "::error file=test/fixtures/invalid/businesses/numeric-postcode.md,line=9,col=15,title=location.postalCode::must be a string (put it in quotes)",
  "::error file=test/fixtures/invalid/businesses/too-long.md,line=14,col=3001,title=(body)::is 3001 characters; the description may have at most 3000",
  "::error file=test/fixtures/invalid/businesses/uk-country.md,line=10,col=12,title=location.country::must be a two-letter upper-case ISO 3166-1 code such as GB; UK is not one: United Kingdom's is GB",
  "::error file=test/fixtures/invalid/businesses/unknown-country.md,line=10,col=12,title=location.country::must be a two-letter upper-case ISO 3166-1 code such as GB",
  "::error file=test/fixtures/invalid/businesses/unknown-key.md,line=13,col=1,title=phone::is not a known key (check its spelling)",
  "::error file=test/fixtures/invalid/businesses/valid-one.md,line=2,col=5,title=id::is already used by businesses/dup-id.md",
];

describe("npm run build", () => {
  let work: { path: string; remove: () => Promise<void> };
  before(async () => {
    work = await tempDir();
  });
  after(async () => {
    await work.remove();
  });

  test("lists every content error with file, field and reason, exits 1 and leaves the existing dist/ untouched", async () => {
    const dist = join(work.path, "dist-kept");
    assert.equal((await cli([], "test/fixtures/basic", dist)).code, 0);
    await writeFile(join(dist, "marker.txt"), "from the previous build");
    const before = await treeDigest(dist);

    const result = await cli([], "test/fixtures/invalid", dist);

    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.deepEqual(result.stderr.trimEnd().split("\n"), INVALID_REPORT);
    assert.deepEqual(await treeDigest(dist), before);
  });

  test("writes the snapshot and prints counts, skipped listings and the version", async () => {
    const dist = join(work.path, "dist-new");
    const result = await cli([], "test/fixtures/basic", dist);

    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout.trim(),
      /^\/.* holds no snapshot and PREVIOUS_SNAPSHOT is not set: the release history starts anew with this build\.\nBuilt .*dist-new\/ for https:\/\/directory\.example: 3 offerings, 9 approved listings \(left out: 1 pending, 1 rejected, 1 suspended\); \d+ files; version [0-9a-f]{16}, the first release of its history; \d+ ms\.$/,
    );
    // The documents the server keeps in memory are listed by the manifest; every one it lists is in dist/. Beside them:
    // the data, each listing's profile (HTML and Markdown), the lists by country and service, and the sitemap.
    const manifest = JSON.parse(await readFile(join(dist, "data/manifest.json"), "utf8")) as { pages: string[] };
    const slugs = (await readFile(join(dist, "data/businesses.ndjson"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { slug: string }).slug);
    assert.equal(slugs.length, 9);
    const expected = [
      "data/businesses.json",
      "data/businesses.ndjson",
      "data/directory-index.bin",
      "data/directory-index.json",
      "data/listing-releases.json",
      "data/manifest.json",
      "data/mcp-app.html",
      "data/offerings-index.json",
      "data/offerings.json",
      "data/releases.json",
      "data/site.json",
      "favicon.ico",
      "favicon.svg",
      "openapi.json",
      "sitemap.xml",
      ...manifest.pages.map((page) => page.slice(1)),
      ...slugs.flatMap((slug) => [`businesses/${slug}/index.md`, `businesses/${slug}/index.html`]),
      // Each list as a page (HTML and Markdown) and as an llms.txt index.
      ...["ca", "de", "fr", "gb", "ie"].flatMap((code) =>
        ["index.html", "index.md", "llms.txt"].map((file) => `businesses/countries/${code}/${file}`),
      ),
      ...["electrical", "handyman", "landscaping", "locksmith", "painting-decorating", "plumbing", "roofing"].flatMap((service) =>
        ["index.html", "index.md", "llms.txt"].map((file) => `businesses/services/${service}/${file}`),
      ),
    ];
    assert.deepEqual(Object.keys(await treeDigest(dist)).sort(), expected.sort());
  });

  test("replaces the previous snapshot whole: files the new build does not write are gone", async () => {
    const dist = join(work.path, "dist-swap");
    assert.equal((await cli([], "test/fixtures/basic", dist)).code, 0);
    await mkdir(join(dist, "stale"), { recursive: true });
    await writeFile(join(dist, "stale", "old.md"), "old");

    assert.equal((await cli([], "test/fixtures/basic", dist)).code, 0);

    await assert.rejects(access(join(dist, "stale", "old.md")));
    const siblings = (await readdir(work.path)).filter((name) => name.includes("dist-swap") && name !== "dist-swap");
    assert.deepEqual(siblings, [".dist-swap-cache"], "no staging or retired folder is left behind, only the build's cache");
  });

  test("fails, naming the limit, when the offerings would make llms.txt 50,000 characters or more, and writes nothing", async () => {
    const content = join(work.path, "content-long-llms");
    await cp("test/fixtures/basic", content, { recursive: true });
    // 20 offerings (the most allowed), 17 of them with a 3,000-character description: llms.txt lists them all.
    const description = "Long words ".repeat(273).trim();
    for (let n = 1; n <= 17; n += 1) {
      const offering = await readFile("test/fixtures/basic/offerings/cost-guides.md", "utf8");
      await writeFile(
        join(content, "offerings", `long-${n}.md`),
        offering.replace("name: Cost guides", `name: Long ${n}`).replace(/^description: .*$/m, `description: ${description}`),
      );
    }
    const dist = join(work.path, "dist-long-llms");

    const { code, stderr } = await cli([], content, dist);

    assert.equal(code, 1);
    assert.match(
      stderr,
      /^build failed: \/llms\.txt would be 5\d{4} characters, over the 50000 it may have: shorten the offerings' names and descriptions\.$/m,
    );
    await assert.rejects(access(dist));
  });
});

describe("npm run check", () => {
  test("reports the same errors as build and exits 1", async () => {
    const work = await tempDir();
    const result = await cli(["--check"], "test/fixtures/invalid", join(work.path, "dist"));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stderr.trimEnd().split("\n"), INVALID_REPORT);
    await work.remove();
  });

  test("--format github prints one GitHub Actions annotation per error on stdout, at the file, line and column", async () => {
    const work = await tempDir();
    const result = await cli(["--check", "--format", "github"], "test/fixtures/invalid", join(work.path, "dist"));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.trimEnd().split("\n"), INVALID_ANNOTATIONS);
    assert.equal(result.stderr, "test/fixtures/invalid: 15 content errors; nothing was written.\n");
    await work.remove();
  });

  test("an unknown option or format is a usage error (exit 2) that names the choices", async () => {
    const work = await tempDir();
    const format = await cli(["--check", "--format", "json"], "test/fixtures/basic", join(work.path, "dist"));
    assert.deepEqual([format.code, format.stderr], [2, 'npm run check: --format must be one of text, github, not "json".\n']);
    const option = await cli(["--check", "--fromat", "github"], "test/fixtures/basic", join(work.path, "dist"));
    assert.deepEqual(
      [option.code, option.stderr],
      [
        2,
        "npm run check: unknown option --fromat; did you mean --format? Options: --clean, --format text|github, --all-warnings, --verbose.\n",
      ],
    );
    await work.remove();
  });

  test("validates good content, prints the counts and writes nothing", async () => {
    const work = await tempDir();
    const result = await cli(["--check"], "test/fixtures/basic", join(work.path, "dist"));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout.trim(),
      "test/fixtures/basic: valid: 3 offerings, 9 approved listings (left out: 1 pending, 1 rejected, 1 suspended).",
    );
    assert.deepEqual(await readdir(work.path), []);
    await work.remove();
  });

  test("names a missing site.md", async () => {
    const work = await tempDir();
    await mkdir(join(work.path, "content", "offerings"), { recursive: true });
    const result = await cli(["--check"], join(work.path, "content"), join(work.path, "dist"));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stderr.trimEnd().split("\n"), [
      `${work.path}/content/site.md: (file): is missing`,
      `${work.path}/content: 1 content error; nothing was written.`,
    ]);
    await work.remove();
  });
});

test("a build whose reader closes its output early (| head) still writes dist/ and exits 0", async () => {
  const work = await tempDir();
  const dist = join(work.path, "dist");
  const env = {
    ...process.env,
    CONTENT_DIR: new URL("../fixtures/basic/", import.meta.url).pathname,
    DIST_DIR: dist,
    BASE_URL: "https://directory.example",
  };
  const child = spawn(process.execPath, ["--import", "tsx", "build/cli.ts", "--verbose"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The reader takes the first line, then goes away, as `head -1` does.
  const [first] = (await once(child.stdout, "data")) as [Buffer];
  child.stdout.destroy();
  child.stderr.destroy();
  const [code] = (await once(child, "exit")) as [number];
  assert.match(first.toString(), /^ {2}read \d+ files/);
  assert.equal(code, 0);
  const manifest = JSON.parse(await readFile(join(dist, "data", "manifest.json"), "utf8")) as { counts: object };
  assert.deepEqual(manifest.counts, { offerings: 3, businesses: 9 });
  await work.remove();
});

test("--verbose prints each stage's own peak memory, not the peak of the process that started the build", async () => {
  const work = await tempDir();
  // 600 MiB resident in this process when it starts the build: getrusage's maxRSS would carry it over.
  const held = Buffer.alloc(600 * 2 ** 20, 1);
  try {
    const result = await buildCli(["--verbose"], new URL("../fixtures/basic/", import.meta.url).pathname, join(work.path, "dist"));
    assert.equal(result.code, 0);
    const peaks = [...result.stdout.matchAll(/peak (\d+) MiB/g)].map((match) => Number(match[1]));
    assert.equal(peaks.length, 13);
    assert.ok(
      peaks.every((peak) => peak > 0 && peak < 400),
      `peaks ${peaks.join(", ")} MiB`,
    );
  } finally {
    assert.equal(held[held.length - 1], 1);
    await work.remove();
  }
});
