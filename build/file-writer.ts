import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { type FileDigest, LISTING_BLOCK_BYTES, SNAPSHOT_FILES, type SnapshotFile } from "../src/snapshot/files.ts";
import { NEWLINE } from "../src/snapshot/listing-lookup.ts";
import { LISTINGS_FOLDER } from "./page-reuse.ts";

/** Writes files under a folder, one at a time, creating each folder once. */
export class FileWriter {
  readonly root: string;
  readonly digests = new Map<SnapshotFile, FileDigest>();
  files = 0;
  readonly #folders = new Set<string>();
  /** Where files below LISTINGS_FOLDER go instead, when the previous snapshot's are kept (build/page-reuse.ts). */
  #listings: string | null = null;

  constructor(root: string) {
    this.root = root;
  }

  /** Writes files below LISTINGS_FOLDER into `folder` from now on. */
  listingsInto(folder: string): void {
    this.#listings = folder;
  }

  #join(relativePath: string): string {
    if (this.#listings !== null && relativePath.startsWith(`${LISTINGS_FOLDER}/`)) {
      return join(this.#listings, relativePath.slice(LISTINGS_FOLDER.length + 1));
    }
    return join(this.root, relativePath);
  }

  #path(relativePath: string): string {
    const path = this.#join(relativePath);
    const folder = dirname(path);
    if (!this.#folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#folders.add(folder);
    }
    this.files += 1;
    return path;
  }

  write(relativePath: string, content: string | Buffer): void {
    writeFileSync(this.#path(relativePath), content);
  }

  /**
   * Many small files, one at a time. Synchronously: a file written from a string is then one call
   * (open, write and close, with no Buffer made for it), where the promise API's three calls and
   * Buffer cost more CPU, and the Buffers' memory brought the collector round on the whole heap
   * (at a million listings those pages took 432 s; 100,000 folders with a file each, alone: 10.1 s
   * wall and 8.5 s of CPU one at a time against 13.3 s and 16.2 s sixteen at a time, 2026-11-28).
   */
  writeAll(files: Iterable<[string, string]>): void {
    for (const [relativePath, content] of files) this.write(relativePath, content);
  }

  /** A snapshot data file, with the size and digest the manifest records for it. */
  data(file: SnapshotFile, content: string | Buffer): void {
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    this.write(SNAPSHOT_FILES[file], bytes);
    this.digests.set(file, { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
  }

  /**
   * data/businesses.ndjson and data/businesses.json, from the listings' `count` JSON lines, made
   * by `lineAt` in rank order: each chunk of lines made, joined and encoded once, and written to
   * both (with a comma before each newline in the JSON array), so neither file nor its lines are
   * ever whole in memory (at a million listings the lines alone were 0.9 GB). Records the NDJSON
   * file's digest, with the digests of its LISTING_BLOCK_BYTES blocks (the JSON file is not
   * verified, so not hashed).
   */
  listings(count: number, lineAt: (rank: number) => string): void {
    const ndjson = openSync(this.#path(SNAPSHOT_FILES.businessesNdjson), "w");
    const array = openSync(this.#path(SNAPSHOT_FILES.businesses), "w");
    const digest = new BlockDigest();
    // The chunks' bytes, and the array's, in buffers used again for each (a Buffer per chunk brought the collector round on the whole heap).
    let bytes = Buffer.alloc(0);
    let arrayBytes = Buffer.alloc(0);
    try {
      writeSync(array, count === 0 ? "[\n\n" : "[\n");
      for (let from = 0; from < count; from += LINES_PER_CHUNK) {
        const lines: string[] = [];
        for (let rank = from; rank < Math.min(from + LINES_PER_CHUNK, count); rank += 1) lines.push(lineAt(rank));
        const text = `${lines.join("\n")}\n`;
        if (bytes.length < Buffer.byteLength(text)) bytes = Buffer.alloc(2 * Buffer.byteLength(text));
        const chunk = bytes.subarray(0, bytes.write(text));
        writeSync(ndjson, chunk);
        digest.update(chunk);
        if (arrayBytes.length < chunk.length + lines.length) arrayBytes = Buffer.alloc(2 * (chunk.length + lines.length));
        writeSync(array, withCommas(chunk, arrayBytes, from + LINES_PER_CHUNK >= count));
      }
      writeSync(array, "]\n");
    } finally {
      closeSync(ndjson);
      closeSync(array);
    }
    this.digests.set("businessesNdjson", digest.digest());
  }
}

/**
 * The JSON array's part for a chunk of NDJSON lines, written into `into`: the same bytes, with a
 * comma before each newline but the file's last line's (`last`: the chunk ends the file). Copied
 * from the chunk's bytes rather than joined and encoded a second time.
 */
function withCommas(chunk: Buffer, into: Buffer, last: boolean): Buffer {
  let to = 0;
  for (let from = 0; from < chunk.length; ) {
    const newline = chunk.indexOf(NEWLINE, from);
    to += chunk.copy(into, to, from, newline);
    if (!last || newline < chunk.length - 1) into[to++] = COMMA;
    into[to++] = NEWLINE;
    from = newline + 1;
  }
  return into.subarray(0, to);
}
const COMMA = 0x2c;

/** How many listing lines are joined and written at once. */
const LINES_PER_CHUNK = 1000;

/** A file's SHA-256 and that of each of its LISTING_BLOCK_BYTES blocks, from its bytes in order. */
class BlockDigest {
  readonly #hash = createHash("sha256");
  readonly #blocks: string[] = [];
  #block = createHash("sha256");
  #inBlock = 0;
  #bytes = 0;

  update(chunk: Buffer): void {
    this.#hash.update(chunk);
    this.#bytes += chunk.length;
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(chunk.length - at, LISTING_BLOCK_BYTES - this.#inBlock);
      this.#block.update(chunk.subarray(at, at + take));
      at += take;
      this.#inBlock += take;
      if (this.#inBlock === LISTING_BLOCK_BYTES) {
        this.#blocks.push(this.#block.digest("hex"));
        this.#block = createHash("sha256");
        this.#inBlock = 0;
      }
    }
  }

  digest(): FileDigest {
    if (this.#inBlock > 0) this.#blocks.push(this.#block.digest("hex"));
    return { bytes: this.#bytes, sha256: this.#hash.digest("hex"), blocks: this.#blocks };
  }
}
