import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, open, readdir, readFile, writeFile } from "node:fs/promises";
import { arch, endianness } from "node:os";
import { join } from "node:path";
import { findTool, type ToolSearch } from "./fleet-tools.ts";
import { LogLines } from "./logs.ts";
import { freePort } from "./ports.ts";

/**
 * nginx for the fleet tests, running the shipped deploy/nginx.conf in front of real replicas.
 * Found without any install: NGINX_PATH when set, else Debian's /usr/sbin/nginx, else `nginx` on
 * PATH. When none is found, the fleet tests are skipped with the reason printed, unless
 * REQUIRE_FLEET_TESTS=1 (set by .ci/run), which makes that a failure.
 */

/** The file operators use: an http-level configuration with placeholders. */
export const NGINX_CONF = new URL("../../deploy/nginx.conf", import.meta.url).pathname;

/** Every placeholder of deploy/nginx.conf, written `${NAME}` there as envsubst reads it. */
export const NGINX_PLACEHOLDERS = ["DIRECTORY_LISTEN", "DIRECTORY_REPLICA_1", "DIRECTORY_REPLICA_2", "DIRECTORY_CACHE_DIR"] as const;
type Placeholder = (typeof NGINX_PLACEHOLDERS)[number];

/** `text` with each `${NAME}` replaced by its value, as envsubst does; a placeholder left over is an error. */
export function fillPlaceholders(text: string, values: Readonly<Record<Placeholder, string>>): string {
  let filled = text;
  for (const name of NGINX_PLACEHOLDERS) {
    if (!filled.includes(`\${${name}}`)) throw new Error(`deploy/nginx.conf has no \${${name}}`);
    filled = filled.replaceAll(`\${${name}}`, values[name]);
  }
  const left = filled.match(/\$\{[A-Z0-9_]+\}/g);
  if (left !== null) throw new Error(`deploy/nginx.conf has placeholders the tests do not know: ${left.join(", ")}`);
  return filled;
}

/** The nginx executable (NGINX_PATH, Debian's, or on PATH), or why none was found. */
export function findNginx(): Promise<ToolSearch> {
  return findTool("nginx", "NGINX_PATH", "/usr/sbin/nginx");
}

export interface Nginx {
  url: string;
  /** Where the cached answers are (the `${DIRECTORY_CACHE_DIR}` given). */
  cacheDir: string;
  child: ChildProcess;
  /** nginx's error log (its stderr), line by line. */
  log: LogLines;
  exited: Promise<number | null>;
}

/**
 * Runs nginx with deploy/nginx.conf, its placeholders filled in, in front of `replicas`
 * (host:port each), listening on 127.0.0.1. Everything nginx writes (pid file, temporary files,
 * cache, access log) goes under `dir`; the error log is its stderr. The few main-context lines
 * here are what the official image's /etc/nginx/nginx.conf gives the file there.
 */
export async function startNginx(binary: string, dir: string, replicas: readonly [string, string]): Promise<Nginx> {
  const port = await freePort();
  const cacheDir = join(dir, "cache");
  await mkdir(cacheDir, { recursive: true });
  const site = fillPlaceholders(await readFile(NGINX_CONF, "utf8"), {
    DIRECTORY_LISTEN: `127.0.0.1:${port}`,
    DIRECTORY_REPLICA_1: replicas[0],
    DIRECTORY_REPLICA_2: replicas[1],
    DIRECTORY_CACHE_DIR: cacheDir,
  });
  await writeFile(join(dir, "directory.conf"), site);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${join(dir, `${kind}-temp`)};`);
  await writeFile(
    join(dir, "nginx.conf"),
    [
      // As root, nginx's workers would run as `nobody`, who cannot enter the test's temporary
      // folder: they run as the user running the test instead (as they do for any other user).
      ...(process.getuid?.() === 0 ? ["user root;"] : []),
      "worker_processes 1;",
      `pid ${join(dir, "nginx.pid")};`,
      // notice: the line saying the workers start, which the test waits for.
      "error_log stderr notice;",
      "events { worker_connections 512; }",
      "http {",
      ...temp,
      `  access_log ${join(dir, "access.log")};`,
      `  include ${join(dir, "directory.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child = spawn(binary, ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  const log = new LogLines();
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => log.write(chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code, signal) => {
      log.end(`nginx exited (${signal ?? code})`);
      resolve(code);
    }),
  );
  child.on("error", (error) => log.end(`nginx did not start: ${error.message}`));
  // nginx opens its listening sockets before it starts the workers that accept on them.
  await log.waitFor("saying its worker started", (line) => / start worker process \d+$/.test(line.msg));
  return { url: `http://127.0.0.1:${port}`, cacheDir, child, log, exited };
}

/** Stops nginx by its process id: SIGTERM makes the master stop its workers, then exit. */
export async function stopNginx(nginx: Nginx): Promise<void> {
  if (nginx.child.exitCode === null && nginx.child.signalCode === null) nginx.child.kill("SIGTERM");
  await nginx.exited;
}

/**
 * How nginx recorded a cached answer's lifetime, from its cache file's header (struct
 * ngx_http_file_cache_header_t, NGX_HTTP_CACHE_VERSION 5, unchanged since nginx 1.11.10): the
 * seconds it is fresh for, and the seconds after that in which it may be served while updating
 * and on errors.
 */
export interface CachedLifetime {
  freshSeconds: number;
  staleWhileRevalidateSeconds: number;
  staleIfErrorSeconds: number;
}

const CACHE_VERSION = 5n;
/** Byte offsets in the header: ngx_uint_t version, then time_t valid_sec, updating_sec, error_sec, last_modified, date. */
const VALID_SEC = 8;
const UPDATING_SEC = 16;
const ERROR_SEC = 24;
const DATE = 40;

/** The one cache file under `cacheDir` holding the answer for `key` (proxy_cache_key: the request URI). */
async function cacheFile(cacheDir: string, key: string): Promise<string> {
  const entries = await readdir(cacheDir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.filter((item) => item.isFile())) {
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(`\nKEY: ${key}\n`)) files.push(path);
  }
  if (files.length !== 1) throw new Error(`expected one cached answer for ${key} in ${cacheDir}, found ${files.length}`);
  return files[0] as string;
}

/**
 * Moves the cached answer for `key` `seconds` into the past, as nginx would see it that much
 * later: its expiry and its date move back, nothing else. nginx reads the header from the file
 * on every request, so the next one finds the answer that old.
 */
export async function ageCachedAnswer(cacheDir: string, key: string, seconds: number): Promise<CachedLifetime> {
  // time_t and ngx_uint_t are 64-bit, little-endian, on the machines this runs on.
  if (endianness() !== "LE" || !["x64", "arm64"].includes(arch())) throw new Error(`nginx's cache header layout is not known on ${arch()}`);
  const handle = await open(await cacheFile(cacheDir, key), "r+");
  try {
    const header = Buffer.alloc(48);
    await handle.read(header, 0, header.length, 0);
    const version = header.readBigUInt64LE(0);
    if (version !== CACHE_VERSION)
      throw new Error(`nginx's cache file version is ${version}, not ${CACHE_VERSION}: its layout is not known`);
    const valid = header.readBigInt64LE(VALID_SEC);
    const date = header.readBigInt64LE(DATE);
    const lifetime = {
      freshSeconds: Number(valid - date),
      staleWhileRevalidateSeconds: Number(header.readBigInt64LE(UPDATING_SEC)),
      staleIfErrorSeconds: Number(header.readBigInt64LE(ERROR_SEC)),
    };
    header.writeBigInt64LE(valid - BigInt(seconds), VALID_SEC);
    header.writeBigInt64LE(date - BigInt(seconds), DATE);
    await handle.write(header, 0, header.length, 0);
    return lifetime;
  } finally {
    await handle.close();
  }
}
