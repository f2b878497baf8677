import { LRUCache } from "lru-cache";
import type { Part, SnapshotView } from "../snapshot/view.ts";
import { type Document, documentOf } from "./kept.ts";

/**
 * The documents of a view, each made and hashed once: the pages the build wrote (llms.txt, the
 * guides, openapi.json) and the pages made from the snapshot alone (404, 503), kept for the view's
 * life; and the pages rendered from one listing or list on request (profiles, lists, sitemap
 * parts), kept within a bound in bytes, so a directory of any size renders each popular page once.
 */

const DOCUMENTS: Part<Map<string, Document>> = { name: "documents", make: () => new Map() };

/** The memory the pages rendered on request may hold per view, in bytes. */
const RENDERED_DOCUMENT_BYTES = 32 * 2 ** 20;

const RENDERED: Part<LRUCache<string, Document>> = {
  name: "rendered documents",
  make: () =>
    new LRUCache<string, Document>({
      maxSize: RENDERED_DOCUMENT_BYTES,
      sizeCalculation: (document, key) => document.body.length + key.length * 2 + 256,
    }),
};

/**
 * The document `key` of the view: made by `make` and hashed on first use, then kept. Undefined
 * when `make` has none; a miss is not kept, so the keys held are bounded by the documents the
 * snapshot has, whatever paths clients ask for.
 */
export function snapshotDocument(view: SnapshotView, key: string, make: () => string | undefined): Document | undefined {
  const documents = view.get(DOCUMENTS);
  let document = documents.get(key);
  if (document === undefined) {
    const text = make();
    if (text === undefined) return undefined;
    document = documentOf(key, text);
    documents.set(key, document);
  }
  return document;
}

/** A page the build wrote into the snapshot (`/llms.txt`, `/offerings/x/index.md`). */
export function snapshotPage(view: SnapshotView, path: string): Document | undefined {
  return snapshotDocument(view, path, () => view.snapshot.pages.get(path));
}

/** A page rendered from the snapshot alone (404, 503): it always exists. */
export function renderedOnce(view: SnapshotView, key: string, render: () => string): Document {
  return snapshotDocument(view, key, render) as Document;
}

/** A page rendered on request (a profile, a list, a sitemap part): made and hashed on first use, kept within the bound. */
export function renderedDocument(view: SnapshotView, key: string, render: () => string): Document {
  const documents = view.get(RENDERED);
  let document = documents.get(key);
  if (document === undefined) {
    document = documentOf(key, render());
    documents.set(key, document);
  }
  return document;
}
