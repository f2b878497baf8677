import { API_DOCS_PATH, API_PREFIX, MCP_PATH, MCP_SERVER_CARD_PATH, markdownPath, OPENAPI_PATH, SERVER_CARD_TYPE } from "../contract.ts";

/** The OpenAPI document's media type, as a link names it (the server sends it as JSON). */
const OPENAPI_TYPE = "application/vnd.oai.openapi+json";

/**
 * The API catalog at /.well-known/api-catalog (RFC 9727): a JSON linkset (RFC 9264) with one entry
 * per API of the site, anchored at its endpoint, in RFC 8631's relations. The REST API has its
 * OpenAPI document as `service-desc`; the MCP endpoint has its server card as `service-meta` (the
 * card states the server's identity and transport, not its interface, which MCP lists at run
 * time, and neither RFC 9727 nor the server card draft names a relation of its own for it). Both
 * have the API documentation, HTML and Markdown, as `service-doc`. The build writes it into the
 * snapshot, and the server sends those bytes.
 */
export function apiCatalog(baseUrl: string): string {
  const docs = [
    { href: `${baseUrl}${API_DOCS_PATH}`, type: "text/html" },
    { href: `${baseUrl}${markdownPath(API_DOCS_PATH)}`, type: "text/markdown" },
  ];
  const linkset = [
    {
      anchor: `${baseUrl}${API_PREFIX}`,
      "service-desc": [{ href: `${baseUrl}${OPENAPI_PATH}`, type: OPENAPI_TYPE }],
      "service-doc": docs,
    },
    {
      anchor: `${baseUrl}${MCP_PATH}`,
      "service-meta": [{ href: `${baseUrl}${MCP_SERVER_CARD_PATH}`, type: SERVER_CARD_TYPE }],
      "service-doc": docs,
    },
  ];
  return `${JSON.stringify({ linkset }, null, 2)}\n`;
}
