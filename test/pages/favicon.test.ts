import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

/** The site's icon in both forms: /favicon.ico and /favicon.svg, served, written to dist/, linked by pages, the same house. */

const served = serveContent(`${FIXTURES}basic`);

test("GET /favicon.svg answers the SVG the build wrote to dist/, as image/svg+xml with an ETag; HEAD the same headers", async () => {
  const response = await fetch(`${served.current.url}/favicon.svg`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "image/svg+xml");
  const tag = response.headers.get("etag");
  assert.ok(tag);
  const body = await response.text();
  assert.equal(body, await readFile(join(served.dist, "favicon.svg"), "utf8"));
  assert.match(
    body,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32" width="32" height="32"><path fill="#1d4ed8" d="[^"]+"\/><\/svg>\n$/,
  );
  const head = await fetch(`${served.current.url}/favicon.svg`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-type"), "image/svg+xml");
  assert.equal(head.headers.get("etag"), tag);
  assert.equal((await fetch(`${served.current.url}/favicon.svg`, { headers: { "if-none-match": tag } })).status, 304);
});

test("every HTML page links the SVG icon", async () => {
  for (const path of ["/", "/businesses", "/docs/api", "/contact"]) {
    const html = await (await fetch(`${served.current.url}${path}`)).text();
    assert.ok(html.includes('<link rel="icon" type="image/svg+xml" href="/favicon.svg">'), path);
  }
});

/** The path's outline (M x y L x y … Z) as points. */
function outline(svg: string): [number, number][] {
  const d = /\sd="M([^"]+)Z"/.exec(svg)?.[1];
  assert.ok(d, "the SVG has one closed path");
  return d.split("L").map((point) => {
    const [x, y] = point.trim().split(" ").map(Number);
    assert.ok(Number.isFinite(x) && Number.isFinite(y), point);
    return [x as number, y as number];
  });
}

/** Whether (x, y) lies on one of the polygon's edges: a pixel centred there may fall either side. */
function onOutline(points: [number, number][], x: number, y: number): boolean {
  return points.some(([x1, y1], i) => {
    const [x2, y2] = points[(i + 1) % points.length] as [number, number];
    const cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
    return cross === 0 && x >= Math.min(x1, x2) && x <= Math.max(x1, x2) && y >= Math.min(y1, y2) && y <= Math.max(y1, y2);
  });
}

/** Whether (x, y) is inside the polygon (even-odd rule). */
function insidePolygon(points: [number, number][], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i, i += 1) {
    const [xi, yi] = points[i] as [number, number];
    const [xj, yj] = points[j] as [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

test("the SVG draws the same house as the ICO: each of the ICO's 32×32 pixels is set exactly when its centre is inside the SVG's outline", async () => {
  const [svg, ico] = await Promise.all([
    (await fetch(`${served.current.url}/favicon.svg`)).text(),
    Buffer.from(await (await fetch(`${served.current.url}/favicon.ico`)).arrayBuffer()),
  ]);
  const points = outline(svg);
  const mismatches: string[] = [];
  let set = 0;
  // The ICO's one bitmap: BGRA rows bottom-up after the 6-byte header, one 16-byte entry and the 40-byte BITMAPINFOHEADER.
  for (let y = 0; y < 32; y += 1) {
    for (let x = 0; x < 32; x += 1) {
      const alpha = ico[62 + ((31 - y) * 32 + x) * 4 + 3];
      const inIco = alpha === 0xff;
      if (inIco) set += 1;
      const [cx, cy] = [x + 0.5, y + 0.5];
      if (!onOutline(points, cx, cy) && inIco !== insidePolygon(points, cx, cy)) mismatches.push(`${x},${y}`);
    }
  }
  assert.ok(set > 200, `the house has ${set} pixels`);
  assert.deepEqual(mismatches, []);
});
