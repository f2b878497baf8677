import { MCP_APP } from "../api/resources.ts";
import { TOOLS } from "../api/tools/index.ts";
import { AI_CATALOG_PATH, AI_CATALOG_TYPE, MCP_PATH, MCP_PROTOCOL_VERSIONS, MCP_SERVER_CARD_PATH, SERVER_CARD_TYPE } from "../contract.ts";
import type { Implementation } from "./protocol.ts";

/**
 * The MCP server card and the AI Catalog that points at it, in the format of the experimental
 * Server Cards draft (SEP-2127, modelcontextprotocol/experimental-ext-server-card): static
 * metadata a client reads before it connects. Both are made once at start from BASE_URL and
 * the server's identity, and agree with what `server/discover` answers.
 */

const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The card's description: at most 100 characters (draft schema). */
const DESCRIPTION = "Free, read-only catalog of offerings and directory of approved public business listings.";

/**
 * The draft's reverse-DNS namespace for a host: `catalog.example.org` → `org.example.catalog`;
 * an IPv4 address stays as it is, and an IPv6 one (`[::1]`) has its colons made hyphens.
 */
function namespaceOf(hostname: string): string {
  const labels = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/[^A-Za-z0-9.-]/g, "-")
    .split(".")
    .filter(Boolean);
  const isAddress = labels.every((label) => /^\d+$/.test(label));
  return (isAddress ? labels : labels.reverse()).join(".") || "localhost";
}

export interface ServerCard {
  readonly $schema: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly title: string;
  readonly websiteUrl: string;
  readonly icons?: Implementation["icons"];
  readonly remotes: readonly {
    readonly type: "streamable-http";
    readonly url: string;
    readonly supportedProtocolVersions: readonly string[];
  }[];
  /** The card's extension point: the MCP App, and the tools whose results it shows. */
  readonly _meta: Readonly<Record<string, unknown>>;
}

export function serverCard(baseUrl: string, info: Implementation): ServerCard {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${namespaceOf(new URL(baseUrl).hostname)}/${info.name}`,
    version: info.version,
    description: DESCRIPTION,
    title: info.title ?? info.name,
    websiteUrl: baseUrl,
    ...(info.icons === undefined ? {} : { icons: info.icons }),
    remotes: [{ type: "streamable-http", url: `${baseUrl}${MCP_PATH}`, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] }],
    // The card lists no primitives (the draft leaves them to tools/list); the app is named under its extension's identifier, as server/discover declares it.
    _meta: {
      [MCP_APP.extension]: { resourceUri: MCP_APP.uri, tools: TOOLS.filter((tool) => tool.app === MCP_APP.uri).map((tool) => tool.name) },
    },
  };
}

/** An AI Catalog with one entry, the card (the AI Catalog draft's discovery document). */
function aiCatalog(baseUrl: string, card: ServerCard): object {
  const [namespace, name] = card.name.split("/");
  return {
    specVersion: "1.0",
    entries: [
      {
        identifier: `urn:air:${new URL(baseUrl).hostname}:mcp:${name ?? namespace}`,
        type: SERVER_CARD_TYPE,
        url: `${baseUrl}${MCP_SERVER_CARD_PATH}`,
      },
    ],
  };
}

/** A document served as it is at a fixed path. */
export interface FixedDocument {
  readonly path: string;
  readonly type: string;
  readonly body: string;
}

/** The server card at /mcp/server-card and the AI Catalog at /.well-known/ai-catalog.json, made once. */
export function serverCardDocuments(baseUrl: string, info: Implementation): readonly FixedDocument[] {
  const card = serverCard(baseUrl, info);
  return [
    { path: MCP_SERVER_CARD_PATH, type: SERVER_CARD_TYPE, body: JSON.stringify(card) },
    { path: AI_CATALOG_PATH, type: AI_CATALOG_TYPE, body: JSON.stringify(aiCatalog(baseUrl, card)) },
  ];
}
