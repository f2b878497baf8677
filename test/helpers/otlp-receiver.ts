import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an OTLP/HTTP JSON export carries it, flattened: attribute values unwrapped. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP's SpanKind: 2 is SERVER. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  /** OTLP's status code (0 unset, 1 ok, 2 error) and message. */
  status: { code: number; message: string };
  /** The instrumentation scope that made it: "@fastify/otel" for HTTP requests. */
  scope: string;
  /** The resource's attributes (service.name, …). */
  resource: Record<string, string | number | boolean>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

function attributes(list: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const { key, value } of list) {
    values[key] = value.intValue !== undefined ? Number(value.intValue) : (value.stringValue ?? value.doubleValue ?? value.boolValue ?? "");
  }
  return values;
}

function flatten(body: OtlpExport): ReceivedSpan[] {
  return body.resourceSpans.flatMap(({ resource, scopeSpans }) =>
    scopeSpans.flatMap(({ scope, spans }) =>
      spans.map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        traceState: span.traceState ?? "",
        name: span.name,
        kind: span.kind,
        attributes: attributes(span.attributes),
        links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
        status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
        scope: scope.name,
        resource: attributes(resource.attributes),
      })),
    ),
  );
}

interface Wait {
  predicate: (span: ReceivedSpan) => boolean;
  resolve: (span: ReceivedSpan) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1 taking JSON exports at /v1/traces, as a collector does: a
 * test waits for the span it expects to arrive rather than for a clock.
 */
export class OtlpReceiver {
  /** Every span received so far. */
  readonly spans: ReceivedSpan[] = [];
  /** Every export request: its path and Content-Type. */
  readonly requests: { path: string; contentType: string }[] = [];
  readonly #server = createServer((request, response) => this.#receive(request, response));
  #waits = new Set<Wait>();

  /** Where the exporter is pointed: OTEL_EXPORTER_OTLP_ENDPOINT. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
  }

  async close(): Promise<void> {
    for (const wait of this.#waits) this.#fail(wait, "the receiver closed");
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /**
   * The first span matching `predicate`, received already or to come. The timeout is a safety net
   * so that a span that never comes fails the test with what did come, rather than hang it.
   */
  waitFor(what: string, predicate: (span: ReceivedSpan) => boolean, timeoutMs = 30_000): Promise<ReceivedSpan> {
    const found = this.spans.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const wait: Wait = {
        predicate,
        resolve,
        reject: (error) => reject(new Error(`waited for a span ${what}: ${error.message}`)),
        timer: setTimeout(() => this.#fail(wait, `not within ${timeoutMs} ms`), timeoutMs),
      };
      this.#waits.add(wait);
    });
  }

  #fail(wait: Wait, why: string): void {
    clearTimeout(wait.timer);
    this.#waits.delete(wait);
    wait.reject(new Error(`${why}; received: ${JSON.stringify(this.spans.map(({ name, traceId }) => ({ name, traceId })))}`));
  }

  #receive(request: IncomingMessage, response: ServerResponse): void {
    let text = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      this.requests.push({ path: request.url ?? "", contentType: request.headers["content-type"] ?? "" });
      let body: OtlpExport;
      try {
        body = JSON.parse(text) as OtlpExport;
      } catch {
        // Not JSON (protobuf, say): refused, and seen in `requests`.
        response.writeHead(400).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const span of flatten(body)) {
        this.spans.push(span);
        for (const wait of this.#waits) {
          if (!wait.predicate(span)) continue;
          clearTimeout(wait.timer);
          this.#waits.delete(wait);
          wait.resolve(span);
        }
      }
    });
  }
}
