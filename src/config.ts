/** Configuration from the environment (contract §1), read once at start. */
import { DEFAULT_STALE_IF_ERROR_SECONDS, DEFAULT_STALE_WHILE_REVALIDATE_SECONDS } from "./contract.ts";

export interface Config {
  /** Where editors' files are. */
  contentDir: string;
  /** Where the snapshot is written and read. */
  distDir: string;
  /** Absolute base of every URL the service prints, without a trailing slash. */
  baseUrl: string;
  port: number;
  host: string;
  /** Lifetime of the service-side result cache in seconds; 0 turns it off. */
  cacheSeconds: number;
  /** How long a cache in front may serve a stale answer while it revalidates (STALE_WHILE_REVALIDATE_SECONDS; 0: never). */
  staleWhileRevalidateSeconds: number;
  /** How long a cache in front may serve a stale answer while the service fails (STALE_IF_ERROR_SECONDS; 0: never). */
  staleIfErrorSeconds: number;
  logLevel: string;
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

/** The content folder the environment names (CONTENT_DIR), for the build and for `npm run dev`'s watcher. */
export function contentDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.CONTENT_DIR || "content";
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, "PORT", 3000, 0, 65535);
  return {
    contentDir: contentDirOf(env),
    distDir: env.DIST_DIR || "dist",
    baseUrl: baseUrl(env, port),
    port,
    host: env.HOST || "127.0.0.1",
    cacheSeconds: integer(env, "CACHE_SECONDS", 60, 0, 86_400),
    staleWhileRevalidateSeconds: integer(env, "STALE_WHILE_REVALIDATE_SECONDS", DEFAULT_STALE_WHILE_REVALIDATE_SECONDS, 0, 31_536_000),
    staleIfErrorSeconds: integer(env, "STALE_IF_ERROR_SECONDS", DEFAULT_STALE_IF_ERROR_SECONDS, 0, 31_536_000),
    logLevel: env.LOG_LEVEL || "info",
    mcpAllowedOrigins: list(env, "MCP_ALLOWED_ORIGINS"),
    mcpAllowedHosts: list(env, "MCP_ALLOWED_HOSTS"),
    rateLimitMax: integer(env, "RATE_LIMIT_MAX", DEFAULT_RATE_LIMIT_MAX, 0, 1_000_000),
    trustProxy: trustProxy(env),
    metricsPort: env.METRICS_PORT === undefined || env.METRICS_PORT === "" ? null : integer(env, "METRICS_PORT", 0, 1, 65535),
    workers: integer(env, "WORKERS", 1, 1, 64),
    // Node.js reads at most 2 GiB into one buffer.
    listingsInMemoryBytes: integer(env, "LISTINGS_IN_MEMORY_MB", 256, 0, 2047) * 2 ** 20,
  };
}
