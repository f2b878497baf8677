import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Bindings, ChildLoggerOptions } from "fastify/types/logger.js";

/** pino's loggers can tell whether a level is written; fastify's type of them does not say so. */
type LevelAware = { isLevelEnabled?: (level: string) => boolean };

/**
 * One log line per request, when it is answered: the request id (fastify's `reqId`), method,
 * route (the pattern, e.g. `/api/directory/:identifier`, not the URL: no query text, no
 * identifiers from clients), status and duration in ms. Bodies and headers are never logged.
 * Replaces fastify's two lines per request (which carry the full URL).
 *
 * The level is read once at start (LOG_LEVEL): when `info` is off (or there is no logger, as in
 * tests), the line would never be written, so the hook is not registered rather than run on
 * every request for nothing, and request loggers are made only when a request logs (an error).
 */
export function registerRequestLog(app: FastifyInstance): void {
  // fastify's stand-in when logging is off has no levels: nothing is ever written.
  const { isLevelEnabled } = app.log as LevelAware;
  if (typeof isLevelEnabled !== "function") return;
  if (!isLevelEnabled.call(app.log, "info")) {
    app.setChildLoggerFactory(lazyChildLogger);
    return;
  }
  app.addHook("onResponse", (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? "(no route)",
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request",
    );
    done();
  });
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * A request's logger (`request.log`, with its `reqId`), made by pino only when the request
 * logs something. fastify makes a child logger for every request, which costs about a
 * microsecond; when `info` is off (see registerRequestLog) most requests never log a line.
 */
class RequestLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#logger().level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.#logger() as LevelAware).isLevelEnabled?.(level) ?? true;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }

  // fatal(), error() … silent(): each passes its arguments to the logger made on first use.
  static {
    for (const level of LEVELS) {
      Object.defineProperty(RequestLogger.prototype, level, {
        value(this: RequestLogger, ...args: unknown[]): void {
          (this.#logger()[level] as (...args: unknown[]) => void)(...args);
        },
      });
    }
  }
}

/** fastify's childLoggerFactory: request loggers made on first use (see RequestLogger). */
function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
