import { proseList } from "../api/prose.ts";
import { MCP_LEGACY_VERSIONS, MCP_MODERN_VERSIONS } from "../contract.ts";

/** Which MCP versions the endpoint serves and how a client opens each era, for /docs/api, llms.txt and openapi.json. */
export const MCP_VERSIONS_SENTENCE = `Protocol revision ${proseList(MCP_MODERN_VERSIONS)} (stateless, no handshake: every request carries its version, client info and capabilities in params._meta, with the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; server/discover lists every version served) and the 2025 versions ${proseList(MCP_LEGACY_VERSIONS)} (after an initialize handshake).`;
