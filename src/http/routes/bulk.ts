import { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { BULK_JSON_PATH, BULK_NDJSON_PATH, JSON_TYPE, NDJSON_TYPE } from "../../contract.ts";
import { bulkListings, directoryOf } from "../../core/directory.ts";
import { servedView } from "../../core/served.ts";
import { bytesAt, type ListingStore } from "../../snapshot/listings.ts";
import { holdListingFile } from "../../snapshot/listings-on-disk.ts";
import type { ServedView } from "../../snapshot/view.ts";
import { versionTag } from "../kept.ts";
import { withDirectory } from "../page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

/**
 * The whole directory for bulk use: the snapshot's own bytes, never copied when it holds them
 * whole; streamed from the file when it reads them from disk.
 */
export function registerBulkDownloads(app: FastifyInstance, served: ServedView): void {
  readOnlyRoute(app, {
    url: BULK_NDJSON_PATH,
    config: { cacheable: true },
    handler: async (request, reply) => {
      const view = servedView(served);
      return withDirectory(view, request, reply, false, () => {
        const listings = bulkListings(directoryOf(view));
        reply.header("etag", versionTag(view, "ndjson")).type(NDJSON_TYPE);
        if (listings.bytes !== null) return reply.send(listings.bytes);
        return reply
          .header("content-length", listings.lineStarts[listings.count] ?? 0)
          .send(streamed(request, listings, fileChunks(listings)));
      });
    },
  });
  readOnlyRoute(app, {
    url: BULK_JSON_PATH,
    config: { cacheable: true },
    handler: async (request, reply) => {
      const view = servedView(served);
      return withDirectory(view, request, reply, false, () => {
        const listings = bulkListings(directoryOf(view));
        return reply
          .headers({ etag: versionTag(view, "json"), "content-length": jsonArrayLength(listings) })
          .type(JSON_TYPE)
          .send(streamed(request, listings, jsonArrayOfLines(listings)));
      });
    },
  });
}

/**
 * A stream of `chunks` read from the listings' file, which stays open until the stream has ended
 * or been destroyed (a HEAD, a 304, a client gone), even if a newer snapshot replaces this one.
 * A debug line says when it lets go: nothing else outside this module can tell.
 */
function streamed(request: FastifyRequest, listings: ListingStore, chunks: AsyncGenerator<Buffer>): Readable {
  const release = holdListingFile(listings);
  return Readable.from(chunks).once("close", () => {
    release();
    request.log.debug("bulk download closed; the listings file is no longer held for it");
  });
}

/** businesses.ndjson read from disk a megabyte at a time. */
async function* fileChunks(listings: ListingStore): AsyncGenerator<Buffer> {
  const size = listings.lineStarts[listings.count] ?? 0;
  const CHUNK = 2 ** 20;
  for (let from = 0; from < size; from += CHUNK) yield await bytesAt(listings, from, Math.min(from + CHUNK, size));
}

/** The length of businesses.json: every listing's bytes, plus "[\n", ",\n" between listings and "\n]\n". */
function jsonArrayLength(listings: ListingStore): number {
  const { count, lineStarts } = listings;
  return (lineStarts[count] ?? 0) - count + 2 + Math.max(0, count - 1) * 2 + 3;
}

/**
 * businesses.json made from businesses.ndjson as it streams: "[", the lines joined by ",", "]",
 * byte for byte the file the build wrote, without holding a second copy of the directory.
 */
async function* jsonArrayOfLines(listings: ListingStore): AsyncGenerator<Buffer> {
  const { count, lineStarts } = listings;
  yield Buffer.from("[\n");
  const CHUNK = 512;
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(from + CHUNK, count);
    const first = lineStarts[from] ?? 0;
    const lines = await bytesAt(listings, first, lineStarts[to] ?? 0);
    const pieces: Buffer[] = [];
    for (let rank = from; rank < to; rank += 1) {
      if (rank > 0) pieces.push(COMMA_NEWLINE);
      pieces.push(lines.subarray((lineStarts[rank] ?? 0) - first, (lineStarts[rank + 1] ?? 1) - 1 - first));
    }
    yield Buffer.concat(pieces);
  }
  yield Buffer.from("\n]\n");
}

const COMMA_NEWLINE = Buffer.from(",\n");
