import type { ListResourcesResult, ReadResourceResult, Resource } from "@modelcontextprotocol/sdk/types.js";
import { searchOfferings } from "../api/tools/search-offerings.ts";
import { API_DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, markdownPath, OFFERINGS_API_PATH, OPENAPI_PATH, offeringPagePath } from "../contract.ts";
import type { OfferingList } from "../schemas/responses.ts";
import type { Snapshot } from "../snapshot/types.ts";

/** One readable document: its resources/list entry and its resources/read answer. */
interface CatalogResource {
  readonly descriptor: Resource;
  readonly read: ReadResourceResult;
}

/** Everything resources/list and resources/read answer for one snapshot. */
export interface ResourceIndex {
  readonly list: ListResourcesResult;
  readonly byUri: ReadonlyMap<string, CatalogResource>;
}

const MARKDOWN = "text/markdown";
const JSON_TYPE = "application/json";

/** Where the build writes each document (snapshot.pages keys), from the one URL layout. */
const PAGE_PATHS = {
  llms: LLMS_PATH,
  llmsFull: LLMS_FULL_PATH,
  apiDocs: markdownPath(API_DOCS_PATH),
  guide: (slug: string) => markdownPath(offeringPagePath(slug)),
} as const;

interface Entry {
  path: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  text: string | undefined;
}

function entries(snapshot: Snapshot): Entry[] {
  const page = (path: string) => snapshot.pages.get(path);
  const offerings = snapshot.catalog.offerings;
  const catalog: OfferingList = { items: [...offerings], total: offerings.length };
  return [
    {
      path: PAGE_PATHS.llms,
      name: "llms.txt",
      title: "AI-readable index (llms.txt)",
      description: "What this service offers and where everything is: the entry point for agents.",
      mimeType: MARKDOWN,
      text: page(PAGE_PATHS.llms),
    },
    {
      path: PAGE_PATHS.llmsFull,
      name: "llms-full.txt",
      title: "Full catalog (Markdown)",
      description: "Every offering in full, with its guide, in one Markdown document.",
      mimeType: MARKDOWN,
      text: page(PAGE_PATHS.llmsFull),
    },
    {
      path: OFFERINGS_API_PATH,
      name: "offerings.json",
      title: "Full catalog (JSON)",
      description: `Every offering as JSON, exactly as GET ${OFFERINGS_API_PATH} and the ${searchOfferings.name} tool answer without search terms.`,
      mimeType: JSON_TYPE,
      text: JSON.stringify(catalog),
    },
    ...offerings.map((offering) => ({
      path: PAGE_PATHS.guide(offering.slug),
      name: `guide-${offering.slug}`,
      title: `Guide: ${offering.name}`,
      description: offering.description,
      mimeType: MARKDOWN,
      text: page(PAGE_PATHS.guide(offering.slug)),
    })),
    {
      path: PAGE_PATHS.apiDocs,
      name: "api-docs",
      title: "API documentation",
      description: "How to use the REST API and this MCP endpoint: endpoints, parameters, paging, errors and limits.",
      mimeType: MARKDOWN,
      text: page(PAGE_PATHS.apiDocs),
    },
    {
      path: OPENAPI_PATH,
      name: "openapi.json",
      title: "OpenAPI 3.1 description",
      description: "The machine-readable description of the REST API.",
      mimeType: JSON_TYPE,
      text: snapshot.openapi,
    },
  ];
}

/**
 * The resources of a snapshot, derived from its catalog and pages once and kept as long as the
 * snapshot is: a request only looks up. A page the snapshot lacks is not listed.
 */
export function createResourceIndexer(baseUrl: string): (snapshot: Snapshot) => ResourceIndex {
  const indexes = new WeakMap<Snapshot, ResourceIndex>();
  return (snapshot) => {
    let index = indexes.get(snapshot);
    if (index === undefined) {
      const byUri = new Map<string, CatalogResource>();
      for (const { path, text, ...entry } of entries(snapshot)) {
        if (text === undefined) continue;
        const uri = `${baseUrl}${path}`;
        byUri.set(uri, {
          descriptor: { uri, ...entry, size: Buffer.byteLength(text) },
          read: { contents: [{ uri, mimeType: entry.mimeType, text }] },
        });
      }
      index = { list: { resources: [...byUri.values()].map((resource) => resource.descriptor) }, byUri };
      indexes.set(snapshot, index);
    }
    return index;
  };
}
