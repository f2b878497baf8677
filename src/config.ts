/** Configuration from the environment (interface §1), read once at start. */
import { statSync } from "node:fs";
import { isIP } from "node:net";
import { DEFAULT_STALE_IF_ERROR_SECONDS, DEFAULT_STALE_WHILE_REVALIDATE_SECONDS, HOST_HEADER_SHAPE, ORIGIN_SHAPE } from "./contract.ts";

export interface Config {
  /** Where editors' files are; checked to be a folder when first read (see readConfig). */
  readonly contentDir: string;
  /** Where the snapshot is written and read. */
  distDir: string;
  /**
   * The folder of an earlier snapshot (or its data/) whose release history the build continues
   * when distDir holds no snapshot (PREVIOUS_SNAPSHOT); checked to be a folder when first read.
   */
  readonly previousSnapshot: string | undefined;
  /**
   * Whether the build writes each listing's profile as page files, HTML and Markdown, for a static
   * host (STATIC_PAGES, default true); the server renders them either way. Read by the build alone.
   */
  readonly staticPages: boolean;
  /** Absolute base of every URL the service prints, without a trailing slash. */
  baseUrl: string;
  port: number;
  host: string;
  /** Lifetime of the service-side result cache in seconds; 0 turns it off. */
  cacheSeconds: number;
  /** The most the answer cache of the snapshot served holds, in bytes (CACHE_MAX_MB). */
  cacheMaxBytes: number;
  /** How long a cache in front may serve a stale answer while it revalidates (STALE_WHILE_REVALIDATE_SECONDS; 0: never). */
  staleWhileRevalidateSeconds: number;
  /** How long a cache in front may serve a stale answer while the service fails (STALE_IF_ERROR_SECONDS; 0: never). */
  staleIfErrorSeconds: number;
  logLevel: LogLevel;
  /** Origins besides BASE_URL's that may call /mcp from a browser (MCP_ALLOWED_ORIGINS, comma-separated). */
  mcpAllowedOrigins: string[];
  /** Host headers besides BASE_URL's accepted on /mcp (MCP_ALLOWED_HOSTS, comma-separated). */
  mcpAllowedHosts: string[];
  /** Requests per client per minute before 429 (RATE_LIMIT_MAX); 0 turns rate limiting off. */
  rateLimitMax: number;
  /**
   * Which proxies to believe about the client's address (TRUST_PROXY): false (none, the default),
   * true (any), a hop count, or a comma-separated list of addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /** The port of the Prometheus metrics listener (METRICS_PORT, on HOST); null (unset) turns metrics off. */
  metricsPort: number | null;
  /** Server processes sharing the port (WORKERS, node:cluster). */
  workers: number;
  /**
   * The largest businesses.ndjson held in memory, in bytes (LISTINGS_IN_MEMORY_MB); a larger one
   * is read from disk per request.
   */
  listingsInMemoryBytes: number;
}

/** pino's levels: any other name makes pino throw when the logger is made. */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The answer cache's default bound: at 100,000 listings a directory page is 11 KB, a search's
 * JSON 1–30 KB and an MCP answer twice that, so 64 MiB keeps several thousand of them.
 */
const DEFAULT_CACHE_MAX_MB = 64;

/** The default per-client limit: a person or an agent reading pages stays far below it; bulk readers use the data files. */
export const DEFAULT_RATE_LIMIT_MAX = 600;

/** A setting that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(`config: ${message}`);
    this.name = "ConfigError";
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return Number(raw);
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * A comma-separated list whose every entry has `shape` (contract.ts's, which /mcp compares): an
 * entry of another shape would be dropped there without a word, and never match.
 */
function listOf(env: NodeJS.ProcessEnv, name: string, shape: RegExp, expected: string): string[] {
  const items = list(env, name);
  const wrong = items.find((item) => !shape.test(item));
  if (wrong !== undefined) throw new ConfigError(`${name} must be ${expected}, separated by commas; ${JSON.stringify(wrong)} is not one.`);
  return items;
}

/** A name to resolve: labels of letters, digits, hyphens and (in container networks' names) underscores. */
const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/;

function host(env: NodeJS.ProcessEnv): string {
  const raw = env.HOST || "127.0.0.1";
  if (isIP(raw) === 0 && (raw.length > 253 || !HOST_NAME.test(raw))) {
    throw new ConfigError(`HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost, not ${JSON.stringify(raw)}.`);
  }
  return raw;
}

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.LOG_LEVEL || "info";
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(raw)}.`);
  }
  return raw as LogLevel;
}

/** What stands at `path`: a folder, something else, or nothing. */
function kindOf(path: string): "folder" | "file" | "nothing" {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats === undefined ? "nothing" : stats.isDirectory() ? "folder" : "file";
}

function distDir(env: NodeJS.ProcessEnv): string {
  const dir = env.DIST_DIR || "dist";
  // Nothing there is fine: the build makes the folder, and a server waits for it.
  if (kindOf(dir) === "file") throw new ConfigError(`DIST_DIR must name a folder (or where to make one); ${dir} is a file.`);
  return dir;
}

function metricsPort(env: NodeJS.ProcessEnv, port: number): number | null {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === "") return null;
  const metrics = integer(env, "METRICS_PORT", 0, 1, 65535);
  if (metrics === port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (both are ${port}): metrics are never served on the public port.`);
  }
  return metrics;
}

function trustProxy(env: NodeJS.ProcessEnv): boolean | number | string[] {
  const raw = (env.TRUST_PROXY ?? "").trim();
  if (raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const addresses = list(env, "TRUST_PROXY");
  if (!addresses.every((address) => /^[0-9A-Fa-f.:]+(?:\/\d{1,3})?$/.test(address))) {
    throw new ConfigError("TRUST_PROXY must be true, false, a hop count, or a comma-separated list of IP addresses or CIDR ranges.");
  }
  return addresses;
}

function baseUrl(env: NodeJS.ProcessEnv, port: number): string {
  const raw = env.BASE_URL;
  if (raw === undefined || raw === "") return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("BASE_URL must be an absolute http: or https: URL such as https://directory.example.");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "") {
    throw new ConfigError("BASE_URL must be an absolute http: or https: URL without query or fragment.");
  }
  return url.href.replace(/\/+$/, "");
}

/**
 * The content folder the environment names (CONTENT_DIR), for the build and for `npm run dev`'s
 * watcher; a ConfigError unless it is a folder.
 */
export function contentDirOf(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CONTENT_DIR || "content";
  const kind = kindOf(dir);
  if (kind !== "folder") {
    throw new ConfigError(
      `CONTENT_DIR must name the folder of editors' files; ${dir} ${kind === "file" ? "is a file" : "does not exist"}.`,
    );
  }
  return dir;
}

/** PREVIOUS_SNAPSHOT, for the build: unset, or a folder (a typo must not quietly start a new release history). */
function previousSnapshotOf(env: NodeJS.ProcessEnv): string | undefined {
  const dir = env.PREVIOUS_SNAPSHOT;
  if (dir === undefined || dir === "") return undefined;
  const kind = kindOf(dir);
  if (kind !== "folder") {
    throw new ConfigError(
      `PREVIOUS_SNAPSHOT must name the folder of an earlier snapshot (or its data/); ${dir} ${kind === "file" ? "is a file" : "does not exist"}.`,
    );
  }
  return dir;
}

/** STATIC_PAGES, for the build: true (the default) or false. */
function staticPagesOf(env: NodeJS.ProcessEnv): boolean {
  const raw = (env.STATIC_PAGES ?? "").trim();
  if (raw === "" || raw === "true") return true;
  if (raw === "false") return false;
  throw new ConfigError(
    "STATIC_PAGES must be true (write every profile's page files, for a static host) or false (the snapshot the server reads).",
  );
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, "PORT", 3000, 0, 65535);
  let contentDir: string | undefined;
  let previousSnapshot: { dir: string | undefined } | undefined;
  let staticPages: boolean | undefined;
  return {
    // Checked when first read, not here: only the build and `npm run dev` read it, and a server
    // (the container's) has no content folder.
    get contentDir() {
      contentDir ??= contentDirOf(env);
      return contentDir;
    },
    // Read by the build alone, as CONTENT_DIR.
    get previousSnapshot() {
      previousSnapshot ??= { dir: previousSnapshotOf(env) };
      return previousSnapshot.dir;
    },
    get staticPages() {
      staticPages ??= staticPagesOf(env);
      return staticPages;
    },
    distDir: distDir(env),
    baseUrl: baseUrl(env, port),
    port,
    host: host(env),
    cacheSeconds: integer(env, "CACHE_SECONDS", 60, 0, 86_400),
    cacheMaxBytes: integer(env, "CACHE_MAX_MB", DEFAULT_CACHE_MAX_MB, 1, 65_536) * 2 ** 20,
    staleWhileRevalidateSeconds: integer(env, "STALE_WHILE_REVALIDATE_SECONDS", DEFAULT_STALE_WHILE_REVALIDATE_SECONDS, 0, 31_536_000),
    staleIfErrorSeconds: integer(env, "STALE_IF_ERROR_SECONDS", DEFAULT_STALE_IF_ERROR_SECONDS, 0, 31_536_000),
    logLevel: logLevel(env),
    mcpAllowedOrigins: listOf(env, "MCP_ALLOWED_ORIGINS", ORIGIN_SHAPE, "origins such as https://app.example or http://localhost:5173"),
    mcpAllowedHosts: listOf(env, "MCP_ALLOWED_HOSTS", HOST_HEADER_SHAPE, "Host values such as mcp.example or mcp.example:8443"),
    rateLimitMax: integer(env, "RATE_LIMIT_MAX", DEFAULT_RATE_LIMIT_MAX, 0, 1_000_000),
    trustProxy: trustProxy(env),
    metricsPort: metricsPort(env, port),
    workers: integer(env, "WORKERS", 1, 1, 64),
    // Node.js reads at most 2 GiB into one buffer.
    listingsInMemoryBytes: integer(env, "LISTINGS_IN_MEMORY_MB", 256, 0, 2047) * 2 ** 20,
  };
}
