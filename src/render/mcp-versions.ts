import { MCP_LEGACY_VERSIONS, MCP_MODERN_VERSIONS } from "../contract.ts";

const list = (items: readonly string[]): string =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/** Which MCP versions the endpoint serves and how a client opens each era, for /docs/api, llms.txt and openapi.json. */
export const MCP_VERSIONS_SENTENCE = `Protocol revision ${list(MCP_MODERN_VERSIONS)} (stateless, no handshake: every request carries its version, client info and capabilities in params._meta, with the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; server/discover lists every version served) and the 2025 versions ${list(MCP_LEGACY_VERSIONS)} (after an initialize handshake).`;
