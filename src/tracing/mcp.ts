/**
 * A span for each MCP request, as OpenTelemetry's semantic conventions for MCP describe the server
 * span: named `{mcp.method.name} {tool}`, of kind SERVER, a child of the trace context the request
 * carries in `params._meta` (`traceparent`, `tracestate` and `baggage`, which MCP 2026-07-28 reserves
 * for it, Base Protocol: `_meta`), linked to the HTTP request's span; without a valid `traceparent`
 * there, a child of the HTTP request's span. Only loaded with tracing on (src/tracing/start.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, ATTR_NETWORK_PROTOCOL_NAME, ATTR_NETWORK_TRANSPORT } from "@opentelemetry/semantic-conventions";
import { MCP_PROTOCOL_VERSIONS } from "../contract.ts";
import { isObject } from "../mcp/json.ts";
import type { Dispatch } from "../mcp/plugin.ts";
import type { McpReply } from "../mcp/server.ts";
import { TOOLS_BY_NAME } from "../mcp/tools.ts";

// The MCP and JSON-RPC attributes are still in development in the semantic conventions, which ask
// for such names to be copied rather than imported from their incubating entry point.
const ATTR_MCP_METHOD_NAME = "mcp.method.name";
const ATTR_MCP_PROTOCOL_VERSION = "mcp.protocol.version";
const ATTR_MCP_RESOURCE_URI = "mcp.resource.uri";
const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
const ATTR_JSONRPC_REQUEST_ID = "jsonrpc.request.id";
const ATTR_RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";

const VERSIONS: ReadonlySet<string> = new Set(MCP_PROTOCOL_VERSIONS);

/** `_meta` read as a carrier: only string values count (W3C Trace Context values are strings). */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const found = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof found === "string" ? found : undefined;
  },
};

/** The context `_meta` names, or undefined when it names no valid one (the request is then not refused). */
function metaContext(params: unknown): Context | undefined {
  if (!isObject(params) || !isObject(params._meta)) return undefined;
  const extracted = propagation.extract(ROOT_CONTEXT, params._meta, META_GETTER);
  const spanContext = trace.getSpanContext(extracted);
  return spanContext !== undefined && isSpanContextValid(spanContext) ? extracted : undefined;
}

/** A JSON-RPC error response's code and message: error responses are small, and only they are parsed. */
function rpcError(id: string | number, reply: McpReply): { code: number; message: string } | undefined {
  if (typeof reply.body !== "string" || !reply.body.startsWith(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":`)) return undefined;
  const { error } = JSON.parse(reply.body) as { error: { code: number; message: string } };
  return error;
}

const TOOL_ERROR_END = `"isError":true}}`;
const TOOL_ERROR_END_BYTES = Buffer.from(TOOL_ERROR_END);

/** A tools/call result with isError set (the REST error object as a tool result): its last member. */
function isToolError(reply: McpReply): boolean {
  const { body } = reply;
  return typeof body === "string"
    ? body.endsWith(TOOL_ERROR_END)
    : body.subarray(-TOOL_ERROR_END_BYTES.length).equals(TOOL_ERROR_END_BYTES);
}

export function tracedDispatch(dispatch: Dispatch, tracer: Tracer): Dispatch {
  return (message, headers: IncomingHttpHeaders, log) => {
    if (message.kind !== "request") return dispatch(message, headers, log);
    const { id, method, params } = message;
    const ambient = context.active();
    const remote = metaContext(params);
    const parent = remote ?? ambient;
    const ambientSpan = remote === undefined ? undefined : trace.getSpan(ambient);

    const tool =
      // Tool names in span names only when they are this server's: a client's made-up name must not make a new span name.
      method === "tools/call" && isObject(params) && typeof params.name === "string" && TOOLS_BY_NAME.has(params.name)
        ? params.name
        : undefined;
    const uri = method === "resources/read" && isObject(params) && typeof params.uri === "string" ? params.uri : undefined;
    const version = headers["mcp-protocol-version"];
    const span = tracer.startSpan(
      tool === undefined ? method : `${method} ${tool}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_MCP_METHOD_NAME]: method,
          [ATTR_JSONRPC_REQUEST_ID]: String(id),
          [ATTR_NETWORK_TRANSPORT]: "tcp",
          [ATTR_NETWORK_PROTOCOL_NAME]: "http",
          ...(typeof version === "string" && VERSIONS.has(version) ? { [ATTR_MCP_PROTOCOL_VERSION]: version } : {}),
          ...(tool === undefined ? {} : { [ATTR_GEN_AI_TOOL_NAME]: tool, [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool" }),
          ...(uri === undefined ? {} : { [ATTR_MCP_RESOURCE_URI]: uri }),
        },
        links: ambientSpan === undefined ? [] : [{ context: ambientSpan.spanContext() }],
      },
      parent,
    );
    try {
      const reply = context.with(trace.setSpan(parent, span), () => dispatch(message, headers, log));
      if (reply !== null) {
        const error = rpcError(id, reply);
        if (error !== undefined) {
          span.setAttributes({ [ATTR_ERROR_TYPE]: String(error.code), [ATTR_RPC_RESPONSE_STATUS_CODE]: String(error.code) });
          span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        } else if (method === "tools/call" && isToolError(reply)) {
          span.setAttribute(ATTR_ERROR_TYPE, "tool_error");
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
      return reply;
    } finally {
      span.end();
    }
  };
}
