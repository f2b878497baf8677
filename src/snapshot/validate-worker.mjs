// @ts-check
/**
 * Checks the listings of one byte range of businesses.ndjson against the PublicBusiness schema,
 * in a worker thread (see listing-check.ts): parsing a million listings makes a million objects,
 * and this way none of them lives in the server's heap, nor blocks its event loop. The worker
 * streams its blocks of the file itself and verifies each against its digest in the manifest,
 * so it checks the very bytes the loader holds.
 *
 * Plain JavaScript, type-checked through JSDoc: a worker does not inherit tsx's loader on
 * Node.js 20 (privatenumber/tsx#354), and registering it in each worker took longer than the
 * check. The schema and Ajv's options come from the loader (src/schemas), so they are defined once.
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";

/**
 * The listings to check: those whose line starts at a byte in [start, end), the bytes of
 * `blocks` (SHA-256 of each `blockBytes` block from `start` on).
 * @typedef {object} ValidationRequest
 * @property {string} path
 * @property {number} start
 * @property {number} end
 * @property {number} blockBytes
 * @property {number} chunkBytes How much of the file is read and decoded at a time.
 * @property {string[]} blocks
 * @property {object} schema The PublicBusiness JSON Schema.
 * @property {import("ajv").Options} ajvOptions
 * @property {import("ajv-formats").FormatName[]} formats
 * @property {boolean} hold Whether the range is the whole file, read into one buffer that is
 *   handed over with the result (transferred, not copied): the loader's copy of the listings.
 * @property {number} checkEnd The listings checked are those whose line starts before this byte
 *   (`end`, but for a file held whose later listings other workers check).
 * @property {SharedArrayBuffer} [checked] A copy of the businesses.ndjson of the snapshot served
 *   now, every line of it checked: a line the same as one of its lines is not checked again.
 */

/**
 * Success, with the file's bytes when they were held; or the first bad line of the range: where
 * the range's first line starts, how many lines come before the bad one (-1 when a block, or the
 * size of a file held, is not the manifest's), and what is wrong.
 * @typedef {{ ok: true, bytes?: ArrayBuffer } | { ok: false, firstLine: number, index: number, problem: string }} ValidationResult
 */

const NEWLINE = 0x0a;
const QUOTE = 0x22;

/**
 * The bytes of `path` from `start` to `end` (exclusive; the file's end when not given), read
 * `chunkBytes` at a time into one buffer: each chunk is valid until the next is read.
 * @param {string} path @param {number} chunkBytes @param {number} start @param {number} [end]
 * @returns {AsyncGenerator<Buffer>}
 */
async function* chunksOf(path, chunkBytes, start, end = Number.POSITIVE_INFINITY) {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafeSlow(chunkBytes);
    for (let position = start; position < end; ) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(chunkBytes, end - position), position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/** How many chunks each read of a file held fills (4 MB of 64 KB chunks): all are issued at once, and checked in order as each lands. */
const CHUNKS_A_PIECE = 64;

/**
 * A file held whole, `size` bytes, read into one buffer of its own (transferable): every piece's
 * read is issued at once, for libuv's threads to fill (and fault in the pages of) while this
 * thread checks the pieces already read. Null when the file is not `size` bytes long.
 * @param {string} path @param {number} size @param {number} pieceBytes
 * @returns {Promise<{ buffer: Buffer<ArrayBuffer>, pieceBytes: number, pieces: Promise<void>[] } | null>}
 */
async function readWhole(path, size, pieceBytes) {
  const file = await open(path, "r");
  if ((await file.stat()).size !== size) {
    await file.close();
    return null;
  }
  const buffer = Buffer.allocUnsafeSlow(size);
  /** @param {number} start @param {number} end @returns {Promise<void>} */
  const fill = async (start, end) => {
    for (let position = start; position < end; ) {
      const { bytesRead } = await file.read(buffer, position, end - position, position);
      if (bytesRead === 0) throw new Error("businesses.ndjson ended early");
      position += bytesRead;
    }
  };
  const pieces = [];
  for (let start = 0; start < size; start += pieceBytes) pieces.push(fill(start, Math.min(start + pieceBytes, size)));
  const all = Promise.all(pieces).finally(() => file.close());
  all.catch(() => {});
  return { buffer, pieceBytes, pieces };
}

/**
 * Bytes start..end of a file held, `chunkBytes` at a time, each once its pieces are read.
 * @param {{ buffer: Buffer, pieceBytes: number, pieces: Promise<void>[] }} held @param {number} chunkBytes @param {number} start @param {number} end
 * @returns {AsyncGenerator<Buffer>}
 */
async function* slicesOf({ buffer, pieceBytes, pieces }, chunkBytes, start, end) {
  for (let at = start; at < end; at += chunkBytes) {
    const to = Math.min(at + chunkBytes, end);
    for (let piece = Math.floor(at / pieceBytes); piece * pieceBytes < to; piece += 1) await pieces[piece];
    yield buffer.subarray(at, to);
  }
}

/**
 * Ajv with our formats, and the schema compiled. Ajv is imported here rather than at the top, so
 * that a file held is read (by libuv's threads) while this thread loads and compiles it.
 * @param {object} schema @param {import("ajv").Options} ajvOptions @param {import("ajv-formats").FormatName[]} formats
 */
async function compile(schema, ajvOptions, formats) {
  const [{ Ajv }, formatsModule] = await Promise.all([import("ajv"), import("ajv-formats")]);
  // ajv-formats ships CommonJS whose default export TypeScript sees as the module namespace.
  const addFormats = /** @type {typeof formatsModule.default.default} */ (/** @type {unknown} */ (formatsModule.default));
  const ajv = new Ajv(ajvOptions);
  addFormats(ajv, formats);
  return { ajv, check: ajv.compile(schema) };
}

/** What every line starts with, before its id. */
const LINE_OPENING = '{"id":"';

/**
 * Whether a line is one of the lines of `checked` (a businesses.ndjson all checked), found by its
 * id: at 100,000 listings, parsing and checking a line took about eight times as long as finding
 * and comparing it, and a snapshot built after one edit has all its lines but one the same.
 * @param {SharedArrayBuffer} checked @returns {(line: string) => boolean}
 */
function checkedLines(checked) {
  const bytes = Buffer.from(checked);
  /** @type {Map<string, number>} where each line starts, by its id */
  const starts = new Map();
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(NEWLINE, start);
    const idEnd = bytes.indexOf(QUOTE, start + LINE_OPENING.length);
    if (end < 0 || idEnd < 0) break;
    starts.set(bytes.toString("utf8", start + LINE_OPENING.length, idEnd), start);
    start = end + 1;
  }
  return (line) => {
    if (!line.startsWith(LINE_OPENING)) return false;
    const start = starts.get(line.slice(LINE_OPENING.length, line.indexOf('"', LINE_OPENING.length)));
    if (start === undefined) return false;
    const end = bytes.indexOf(NEWLINE, start);
    return bytes.toString("utf8", start, end) === line;
  };
}

/**
 * @param {ValidationRequest} request
 * @returns {Promise<ValidationResult>}
 */
async function validate({
  path,
  start,
  end,
  checkEnd,
  blockBytes,
  chunkBytes,
  blocks,
  schema,
  ajvOptions,
  formats,
  hold,
  checked: checkedFile,
}) {
  // A file held (`start` is 0) is read whole, and must be the manifest's size.
  const reading = hold ? readWhole(path, end, chunkBytes * CHUNKS_A_PIECE) : undefined;
  reading?.catch(() => {});
  const { ajv, check } = await compile(schema, ajvOptions, formats);
  const alreadyChecked = checkedFile === undefined ? undefined : checkedLines(checkedFile);

  // Each block's bytes are hashed as they come and compared with its digest when it is complete.
  let block = 0;
  let blockHash = createHash("sha256");
  let blockEnd = Math.min(start + blockBytes, end);
  /** @param {Buffer} bytes @param {number} at where `bytes` starts in the file @returns {boolean} */
  const verify = (bytes, at) => {
    for (let from = 0; from < bytes.length; ) {
      const take = Math.min(bytes.length - from, blockEnd - (at + from));
      blockHash.update(bytes.subarray(from, from + take));
      from += take;
      if (at + from === blockEnd) {
        if (blockHash.digest("hex") !== blocks[block]) return false;
        block += 1;
        blockHash = createHash("sha256");
        blockEnd = Math.min(blockEnd + blockBytes, end);
      }
    }
    return true;
  };
  /** @type {ValidationResult} */
  const changed = {
    ok: false,
    firstLine: start,
    index: -1,
    problem: "businesses.ndjson changed while it was being loaded; run `npm run build`.",
  };
  const held = (await reading) ?? undefined;
  if (reading !== undefined && held === undefined) return changed;
  /** The chunks of bytes from..to: slices of the file held, or read. @param {number} from @param {number} to */
  const chunks = (from, to) =>
    held === undefined ? chunksOf(path, chunkBytes, from, to) : slicesOf(held, chunkBytes, from, Math.min(to, end));

  /**
   * What is wrong with one line, or null.
   * @param {string} text
   * @returns {string | null}
   */
  const problemOf = (text) => {
    if (alreadyChecked?.(text) === true) return null;
    let business;
    try {
      business = JSON.parse(text);
    } catch {
      return "is not valid JSON.";
    }
    if (!check(business)) return `does not match the PublicBusiness schema (${ajv.errorsText(check.errors)}).`;
    const { id, slug } = /** @type {{ id: string, slug: string }} */ (business);
    if (id !== id.toLowerCase()) return "has an id in capitals.";
    // The server finds listings by the id and slug each line starts with: they must be its only ones.
    if (!text.startsWith(`${LINE_OPENING}${id}","slug":"${slug}",`)) return "does not start with its id and slug.";
    return null;
  };

  // Reading starts one byte early: when that byte is a newline, a line starts at `start`.
  const from = Math.max(0, start - 1);
  /** The bytes read of the current line; null while skipping to the range's first line. */
  let line = start === 0 ? Buffer.alloc(0) : null;
  /** Where the range's first line starts, and how many of its lines are checked. */
  let firstLine = start;
  let checked = 0;
  /** @param {string} problem @returns {ValidationResult} */
  const failure = (problem) => ({ ok: false, firstLine, index: checked, problem });
  /** Every line checked: success once the range's bytes have all been read and verified. @returns {Promise<ValidationResult>} */
  const finished = async () => {
    // The range's last line may end before its last block does: read the rest to verify it.
    if (position < end) {
      for await (const chunk of chunks(position, end)) {
        if (!verify(chunk, position)) return changed;
        position += chunk.length;
      }
    }
    if (block !== blocks.length) return changed;
    return held === undefined ? { ok: true } : { ok: true, bytes: held.buffer.buffer };
  };

  let position = from;
  for await (const chunk of chunks(from, Number.POSITIVE_INFINITY)) {
    const chunkStart = position;
    position += chunk.length;
    const hashFrom = Math.max(start, chunkStart);
    const hashTo = Math.min(end, position);
    if (hashFrom < hashTo && !verify(chunk.subarray(hashFrom - chunkStart, hashTo - chunkStart), hashFrom)) return changed;

    let at = 0;
    if (line === null) {
      const newline = chunk.indexOf(NEWLINE);
      if (newline < 0) continue;
      at = newline + 1;
      firstLine = chunkStart + at;
      if (firstLine >= end) return finished();
      line = Buffer.alloc(0);
    }
    // The range's last line is the one that holds byte checkEnd - 1: it ends at the first newline from there.
    const boundary = checkEnd - 1 - chunkStart < chunk.length ? chunk.indexOf(NEWLINE, Math.max(at, checkEnd - 1 - chunkStart)) : -1;
    const last = boundary >= 0 ? boundary : chunk.lastIndexOf(NEWLINE);
    if (last >= at) {
      // The chunk's complete lines are decoded at once, not one by one.
      const text = (line.length === 0 ? chunk.subarray(at, last) : Buffer.concat([line, chunk.subarray(at, last)])).toString("utf8");
      for (let from = 0; ; ) {
        const stop = text.indexOf("\n", from);
        const problem = problemOf(stop < 0 ? text.slice(from) : text.slice(from, stop));
        if (problem !== null) return failure(problem);
        checked += 1;
        if (stop < 0) break;
        from = stop + 1;
      }
      if (boundary >= 0) return finished();
      at = last + 1;
      line = Buffer.alloc(0);
    }
    line = Buffer.concat([line, chunk.subarray(at)]);
  }
  // A last line without its newline (the loader refuses those too).
  if (line !== null && line.length > 0) {
    const problem = problemOf(line.toString("utf8"));
    if (problem !== null) return failure(problem);
  }
  return finished();
}

const result = await validate(/** @type {ValidationRequest} */ (workerData));
parentPort?.postMessage(result, result.ok && result.bytes !== undefined ? [result.bytes] : []);
