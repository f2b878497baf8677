import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK side of one stateless POST: one message in, at most one response out. The HTTP side
 * (headers, size, parsing, status codes) is the fastify plugin's; this only hands the message
 * to the Server and waits for the response with the same id. The SDK's own
 * StreamableHTTPServerTransport would do the same through a Web Request/Response conversion
 * that costs about five times what the whole exchange costs here.
 */
class OneMessageTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  readonly #id: RequestId | undefined;
  readonly answer: Promise<JSONRPCResponse>;
  #resolve: (response: JSONRPCResponse) => void = () => {};

  constructor(id: RequestId | undefined) {
    this.#id = id;
    this.answer = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Only the response to our request has somewhere to go: without a stream, notifications
    // and server-to-client requests cannot reach a stateless client.
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id === this.#id) {
      this.#resolve(message);
    }
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

/**
 * Delivers `message` to a fresh `server` and returns the response to send, or null for a
 * notification or a client's response (answered 202 without a body).
 */
export async function exchange(server: Server, message: JSONRPCMessage): Promise<JSONRPCResponse | null> {
  const request = isJSONRPCRequest(message);
  const transport = new OneMessageTransport(request ? message.id : undefined);
  await server.connect(transport);
  transport.onmessage?.(message);
  // No close(): the server and transport hold no socket or timer and are dropped with this
  // request. Closing would abort the finished handler's signal and build the SDK's
  // "Connection closed" error, which took a third of the exchange's time.
  return request ? await transport.answer : null;
}
