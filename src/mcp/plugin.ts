import type { FastifyError, FastifyInstance } from "fastify";
import { errorHeaders } from "../api/error-headers.ts";
import type { Config } from "../config.ts";
import { JSON_TYPE, MCP_MAX_MESSAGE_BYTES, MCP_PATH } from "../contract.ts";
import type { AnswerCache } from "../core/answer-cache.ts";
import { ApiError } from "../core/errors.ts";
import type { Part, ServedView } from "../snapshot/view.ts";
import { loadRequestSchemas } from "./protocol.ts";
import { resourceIndexPart } from "./resources.ts";
import { RPC } from "./rpc.ts";
import { createDispatcher, type McpObserver, serverInfo } from "./server.ts";
import { corsHeaders, McpHttpError, preflightHeaders, refusals, requestRules, toMessage } from "./transport.ts";

export interface McpOptions {
  served: ServedView;
  /** The view's answer cache, shared with REST and the pages. */
  answers: Part<AnswerCache | null>;
  config: Config;
  observer?: McpObserver;
  /** Wraps the dispatcher once, at start: src/tracing's MCP spans when tracing is on. Without it the dispatcher answers as it is. */
  wrapDispatch?: ((dispatch: Dispatch) => Dispatch) | undefined;
}

/** The MCP server: one JSON-RPC message in, its answer (or null: 202 without a body) out. */
export type Dispatch = ReturnType<typeof createDispatcher>;

/** Fastify's own failures, in this scope's terms. */
function toMcpHttpError(error: FastifyError): McpHttpError {
  if (error instanceof McpHttpError) return error;
  // A refusal made before the endpoint's own rules ran (rate limit, load shedding), in JSON-RPC's shape.
  if (error instanceof ApiError)
    return new McpHttpError(error.status, RPC.serverError, `${error.message} ${error.resolution}`, errorHeaders(error));
  switch (error.statusCode) {
    case 413:
      return refusals.tooLarge();
    case 415:
      return refusals.unsupportedMediaType();
    case undefined:
      return refusals.internal();
    default:
      return error.statusCode >= 400 && error.statusCode < 500 ? refusals.badRequest() : refusals.internal();
  }
}

/**
 * POST /mcp: the MCP endpoint, stateless Streamable HTTP with JSON responses, serving the 2025
 * versions and 2026-07-28 side by side (interface §6).
 * Registered in its own encapsulated scope so that its body parser, error bodies (JSON-RPC,
 * not REST Error objects) and hooks stay away from the REST routes. A browser page on an allowed
 * origin gets CORS: its preflight (OPTIONS) is answered, and answers to its POSTs name its origin.
 */
export async function registerMcp(app: FastifyInstance, { served, answers, config, observer, wrapDispatch }: McpOptions): Promise<void> {
  const rules = requestRules(config);
  const info = serverInfo(config.baseUrl);
  const dispatcher = createDispatcher({ served, answers, observer, resources: resourceIndexPart(config.baseUrl), serverInfo: info });
  const dispatch = wrapDispatch === undefined ? dispatcher : wrapDispatch(dispatcher);

  await app.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const refusal = toMcpHttpError(error);
      if (refusal.status >= 500) request.log.error({ err: error }, "mcp request failed");
      // A body we refused without reading is not drained: the connection closes instead.
      if (!request.raw.complete) reply.header("connection", "close");
      return reply.code(refusal.status).headers(refusal.headers).type("application/json").send(refusal.toBody());
    });

    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: MCP_MAX_MESSAGE_BYTES }, (_request, body, done) => {
      let value: unknown;
      try {
        value = JSON.parse(body as string);
      } catch {
        done(refusals.parseError(), undefined);
        return;
      }
      done(null, value);
    });

    scope.route({
      method: "POST",
      url: MCP_PATH,
      bodyLimit: MCP_MAX_MESSAGE_BYTES,
      onRequest: async (request, reply) => {
        rules.checkCaller(request.headers);
        // From here on the Origin, if any, is allowed: every answer, errors too, is readable by its page.
        const origin = request.headers.origin;
        if (origin !== undefined) reply.headers(corsHeaders(origin));
        rules.checkPost(request.headers);
      },
      handler: async (request, reply) => {
        const message = toMessage(request.body);
        if (message.kind === "request" && message.method !== "tools/call") await loadRequestSchemas();
        const response = dispatch(message, request.headers, request.log);
        if (response === null) return reply.code(202).send();
        // The type is set in full: fastify adds the charset to text bodies only, and a tool's answer is bytes.
        return reply.code(response.status).type(JSON_TYPE).send(response.body);
      },
    });

    scope.route({
      method: scope.supportedMethods.filter((method) => method !== "POST"),
      url: MCP_PATH,
      onRequest: async (request, reply) => {
        rules.checkCaller(request.headers);
        const origin = request.headers.origin;
        // A CORS preflight: OPTIONS with an Origin and the method the browser wants to send.
        if (request.method === "OPTIONS" && origin !== undefined && request.headers["access-control-request-method"] !== undefined) {
          return reply.code(204).headers(preflightHeaders(origin)).send();
        }
        throw refusals.methodNotAllowed();
      },
      handler: async () => {
        throw refusals.methodNotAllowed();
      },
    });
  });
}
