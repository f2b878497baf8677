/**
 * src/render/page-model.ts names Node.js's Buffer in a type and in a function (a card's bytes)
 * that a profile page never calls: as much of it as the browser code's typecheck needs.
 */
interface Buffer extends Uint8Array {}
declare const Buffer: { from(text: string): Buffer };
