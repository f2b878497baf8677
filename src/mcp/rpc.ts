/**
 * JSON-RPC error codes and the error a request is answered with. The codes are JSON-RPC 2.0's
 * and MCP's (2026-07-28, Base Protocol: Error Codes); which of them an era uses is decided in
 * era.ts and server.ts.
 */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Implementation-defined server error, as the SDK's transport uses for HTTP-level refusals. */
  serverError: -32000,
  /** A resource URI that names nothing, in the 2025 versions (2026-07-28 uses invalidParams). */
  legacyResourceNotFound: -32002,
  /** 2026-07-28: an HTTP header that is missing, malformed or disagrees with the body. */
  headerMismatch: -32020,
  /** 2026-07-28: a protocol version this server does not serve; `data` lists those it does. */
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * A JSON-RPC error answered for a request: its code, message and optional data, sent as they
 * are, with the HTTP status the transport gives it (200 unless the revision says otherwise).
 */
export class RpcError extends Error {
  readonly code: number;
  readonly status: number;
  readonly data: unknown;

  constructor(code: number, message: string, options: { status?: number; data?: unknown } = {}) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.status = options.status ?? 200;
    this.data = options.data;
  }

  /** The JSON-RPC error response for request `id` (null when the request's id is unknown). */
  toResponse(id: string | number | null): string {
    const error =
      this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
    return JSON.stringify({ jsonrpc: "2.0", id, error });
  }
}
