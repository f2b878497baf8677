/**
 * The site's icon, drawn here so that no binary file needs maintaining: a house in the site's
 * blue, described once (HOUSE) and written both as `/favicon.ico` (a 32×32 bitmap, each pixel
 * in the house when its centre is) and as `/favicon.svg` (the same outline as a path).
 * MCP names both as the server's and the tools' icons (src/mcp/server.ts).
 */

/** The icon's side, in pixels (the ICO's bitmap, the SVG's grid). */
export const FAVICON_SIZE = 32;

const BLUE = [0x1d, 0x4e, 0xd8] as const; // #1d4ed8 as R, G, B

/**
 * The house on a 32×32 grid, y from the top: a roof (a triangle from its apex down to its base,
 * sides at 45°), walls below it, and a door cut out of the walls, standing on their bottom.
 */
const HOUSE = {
  roof: { apexX: 16, apexY: 4, baseY: 16 },
  walls: { left: 7, right: 25, top: 16, bottom: 28 },
  door: { left: 13, right: 19, top: 19 },
} as const;

/** Whether the point (x, y) is part of the house. */
function inside(x: number, y: number): boolean {
  const { roof, walls, door } = HOUSE;
  const inRoof = y >= roof.apexY && y < roof.baseY && Math.abs(x - roof.apexX) <= y - roof.apexY;
  const inWalls = y >= walls.top && y < walls.bottom && x >= walls.left && x < walls.right;
  const inDoor = y >= door.top && x >= door.left && x < door.right;
  return (inRoof || inWalls) && !inDoor;
}

/** The house's outline as an SVG path: the roof's apex, clockwise round the walls and the door. */
function outline(): string {
  const { roof, walls, door } = HOUSE;
  const half = roof.baseY - roof.apexY;
  const points: [number, number][] = [
    [roof.apexX, roof.apexY],
    [roof.apexX + half, roof.baseY],
    [walls.right, walls.top],
    [walls.right, walls.bottom],
    [door.right, walls.bottom],
    [door.right, door.top],
    [door.left, door.top],
    [door.left, walls.bottom],
    [walls.left, walls.bottom],
    [walls.left, walls.top],
    [roof.apexX - half, roof.baseY],
  ];
  return `M${points.map(([x, y]) => `${x} ${y}`).join("L")}Z`;
}

const hex = (value: number) => value.toString(16).padStart(2, "0");

/** `/favicon.svg`: the house as a vector image. */
export function faviconSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${FAVICON_SIZE} ${FAVICON_SIZE}" width="${FAVICON_SIZE}" height="${FAVICON_SIZE}"><path fill="#${BLUE.map(hex).join("")}" d="${outline()}"/></svg>\n`;
}

/** `/favicon.ico`: one 32-bit bitmap (BITMAPINFOHEADER, rows bottom-up, BGRA, then the 1-bit AND mask, all zero: the alpha channel decides). */
export function faviconIco(): Buffer {
  const maskRowBytes = Math.ceil(FAVICON_SIZE / 32) * 4;
  const pixelBytes = FAVICON_SIZE * FAVICON_SIZE * 4;
  const imageBytes = 40 + pixelBytes + maskRowBytes * FAVICON_SIZE;
  const ico = Buffer.alloc(6 + 16 + imageBytes);
  // ICONDIR: reserved, type 1 (icon), one image.
  ico.writeUInt16LE(0, 0);
  ico.writeUInt16LE(1, 2);
  ico.writeUInt16LE(1, 4);
  // ICONDIRENTRY: width, height, no palette, reserved, 1 plane, 32 bits, size, offset.
  ico.writeUInt8(FAVICON_SIZE, 6);
  ico.writeUInt8(FAVICON_SIZE, 7);
  ico.writeUInt16LE(1, 10);
  ico.writeUInt16LE(32, 12);
  ico.writeUInt32LE(imageBytes, 14);
  ico.writeUInt32LE(22, 18);
  // BITMAPINFOHEADER: the height counts the bitmap and its mask.
  const header = 22;
  ico.writeUInt32LE(40, header);
  ico.writeInt32LE(FAVICON_SIZE, header + 4);
  ico.writeInt32LE(FAVICON_SIZE * 2, header + 8);
  ico.writeUInt16LE(1, header + 12);
  ico.writeUInt16LE(32, header + 14);
  ico.writeUInt32LE(pixelBytes + maskRowBytes * FAVICON_SIZE, header + 20);
  const pixels = header + 40;
  for (let row = 0; row < FAVICON_SIZE; row += 1) {
    const y = FAVICON_SIZE - 1 - row;
    for (let x = 0; x < FAVICON_SIZE; x += 1) {
      // A pixel is the house's when its centre is.
      if (!inside(x + 0.5, y + 0.5)) continue;
      const at = pixels + (row * FAVICON_SIZE + x) * 4;
      ico[at] = BLUE[2];
      ico[at + 1] = BLUE[1];
      ico[at + 2] = BLUE[0];
      ico[at + 3] = 0xff;
    }
  }
  return ico;
}
