/**
 * Memory for answer bodies, cut from shared slabs as Node.js cuts small Buffers from its 8 KB
 * pool. A directory page is 1–30 KB: Buffer.allocUnsafe gives anything over 4 KB an ArrayBuffer
 * of its own, which costs more than the page's copying. A slab is freed once no body cut from it
 * is referenced; a body kept for long (the result cache) is copied out first (see `compact`), so it
 * does not hold a whole slab.
 */

const SLAB_BYTES = 256 * 1024;
/** Larger bodies get their own memory. */
const MAX_SLICE_BYTES = SLAB_BYTES / 4;

let slab = Buffer.allocUnsafe(0);
let used = 0;

/** `length` bytes of uninitialised memory, usually a slice of the current slab. */
export function allocateBody(length: number): Buffer {
  if (length > MAX_SLICE_BYTES) return Buffer.allocUnsafe(length);
  if (used + length > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  const body = slab.subarray(used, used + length);
  // The next slice starts 8-byte aligned, as in Node.js's pool.
  used += (length + 7) & ~7;
  return body;
}

/** `body` in memory of its own when it is a slice of a larger buffer; `body` itself otherwise. */
export function compact(body: Buffer): Buffer {
  if (body.byteLength === body.buffer.byteLength) return body;
  // allocUnsafeSlow: Buffer.from would cut a small copy from Node.js's own pool.
  const own = Buffer.allocUnsafeSlow(body.byteLength);
  body.copy(own);
  return own;
}
