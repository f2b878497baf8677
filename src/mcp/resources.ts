import { MCP_APP, type ResourceSource, resourceList } from "../api/resources.ts";
import type { OfferingList } from "../schemas/responses.ts";
import type { Snapshot } from "../snapshot/types.ts";
import type { Part } from "../snapshot/view.ts";
import type { ListResourcesResult, ReadResourceResult, Resource } from "./protocol.ts";

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

/** A resource's text in `snapshot`; undefined when the snapshot lacks it. */
function textOf(snapshot: Snapshot, source: ResourceSource): string | undefined {
  if (source === "openapi") return snapshot.openapi;
  if (source === "catalog") {
    const offerings = snapshot.catalog.offerings;
    const catalog: OfferingList = { items: [...offerings], total: offerings.length };
    return JSON.stringify(catalog);
  }
  return snapshot.pages.get(source.page);
}

/** The MCP App, read by its ui:// URI (not listed: MCP_APP), with its metadata on the content (MCP Apps, Metadata Location). */
function appResource(html: string): CatalogResource {
  const { uri, name, title, description, mimeType, meta } = MCP_APP;
  return {
    descriptor: { uri, name, title, description, mimeType, size: Buffer.byteLength(html), _meta: meta },
    read: { contents: [{ uri, mimeType, text: html, _meta: meta }] },
  };
}

/**
 * The resources of a view, derived from its catalog and pages once and kept as long as the view
 * is: a request only looks up. A page the snapshot lacks is not listed.
 */
export function resourceIndexPart(baseUrl: string): Part<ResourceIndex> {
  return {
    name: "mcp resources",
    make: ({ snapshot }) => {
      const byUri = new Map<string, CatalogResource>();
      for (const { path, source, ...entry } of resourceList(snapshot.catalog.offerings)) {
        const text = textOf(snapshot, source);
        if (text === undefined) continue;
        const uri = `${baseUrl}${path}`;
        byUri.set(uri, {
          descriptor: { uri, ...entry, size: Buffer.byteLength(text) },
          read: { contents: [{ uri, mimeType: entry.mimeType, text }] },
        });
      }
      const list = { resources: [...byUri.values()].map((resource) => resource.descriptor) };
      byUri.set(MCP_APP.uri, appResource(snapshot.mcpApp));
      return { list, byUri };
    },
  };
}
