import { API_DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, markdownPath, OFFERINGS_API_PATH, OPENAPI_PATH, offeringPagePath } from "../contract.ts";
import type { Offering } from "../schemas/offering.ts";
import { TOOL_NAMES } from "./tools/tool.ts";

/**
 * The documents MCP offers as resources, declared once: src/mcp/resources.ts serves them and
 * the API documentation lists them. Each one's URI is its public URL under BASE_URL.
 */

/** Where a resource's text comes from in the snapshot. */
export type ResourceSource = { readonly page: string } | "catalog" | "openapi";

export interface ResourceSpec {
  /** The public URL path (the URI is BASE_URL + path). */
  readonly path: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** As MCP names it: no charset. */
  readonly mimeType: "text/markdown" | "application/json";
  readonly source: ResourceSource;
}

export const RESOURCES = {
  llms: {
    path: LLMS_PATH,
    name: "llms.txt",
    title: "AI-readable index (llms.txt)",
    description: "What this service offers and where everything is: the entry point for agents.",
    mimeType: "text/markdown",
    source: { page: LLMS_PATH },
  },
  llmsFull: {
    path: LLMS_FULL_PATH,
    name: "llms-full.txt",
    title: "Full catalog (Markdown)",
    description: "Every offering in full, with its guide, in one Markdown document.",
    mimeType: "text/markdown",
    source: { page: LLMS_FULL_PATH },
  },
  catalog: {
    path: OFFERINGS_API_PATH,
    name: "offerings.json",
    title: "Full catalog (JSON)",
    description: `Every offering as JSON, exactly as GET ${OFFERINGS_API_PATH} and the ${TOOL_NAMES.searchOfferings} tool answer without search terms.`,
    mimeType: "application/json",
    source: "catalog",
  },
  apiDocs: {
    path: markdownPath(API_DOCS_PATH),
    name: "api-docs",
    title: "API documentation",
    description: "How to use the REST API and this MCP endpoint: endpoints, parameters, paging, errors and limits.",
    mimeType: "text/markdown",
    source: { page: markdownPath(API_DOCS_PATH) },
  },
  openapi: {
    path: OPENAPI_PATH,
    name: "openapi.json",
    title: "OpenAPI 3.1 description",
    description: "The machine-readable description of the REST API.",
    mimeType: "application/json",
    source: "openapi",
  },
} as const satisfies Record<string, ResourceSpec>;

/** An offering's guide in Markdown, as a resource. */
function guideResource(offering: Offering): ResourceSpec {
  const path = markdownPath(offeringPagePath(offering.slug));
  return {
    path,
    name: `guide-${offering.slug}`,
    title: `Guide: ${offering.name}`,
    description: offering.description,
    mimeType: "text/markdown",
    source: { page: path },
  };
}

/** Every resource of a catalog, in the order resources/list gives them. */
export function resourceList(offerings: readonly Offering[]): ResourceSpec[] {
  return [RESOURCES.llms, RESOURCES.llmsFull, RESOURCES.catalog, ...offerings.map(guideResource), RESOURCES.apiDocs, RESOURCES.openapi];
}

/**
 * The MCP App (MCP Apps, SEP-1865, extension `io.modelcontextprotocol/ui`): one self-contained
 * HTML document, built into the snapshot (build/mcp-app.ts), that hosts show beside the results
 * of the tools that name it (their definitions' `app`). It is read by its `ui://` URI only, not
 * listed: the spec lets a server leave UI-only resources out of resources/list, and every listed
 * resource here is a page at its public URL (interface §6).
 */
export const MCP_APP = {
  /** The extension's identifier, as the server declares it in its capabilities. */
  extension: "io.modelcontextprotocol/ui",
  uri: "ui://directory/results.html",
  name: "directory-results",
  title: "Directory results",
  description: `Cards for the listings that ${TOOL_NAMES.searchBusinesses} and ${TOOL_NAMES.getBusiness} answer, with paging, a refined search and a "Request a quote" button that asks the host to open the listing's quoteUrl.`,
  mimeType: "text/html;profile=mcp-app",
  /**
   * The resource's own metadata on resources/read: it loads nothing from another origin and
   * connects nowhere (empty lists: no external origin, the spec's restrictive default), and
   * draws its own cards, so it asks for no host border.
   */
  meta: {
    ui: {
      csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      prefersBorder: false,
    },
  },
} as const;
