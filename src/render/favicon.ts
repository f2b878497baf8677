/**
 * The site's icon, `/favicon.ico`: a 32×32 house in the site's blue, drawn here so that no
 * binary file needs maintaining. An ICO file holding one 32-bit bitmap (BITMAPINFOHEADER, rows
 * bottom-up, BGRA, then the 1-bit AND mask, all zero: the alpha channel decides).
 */
const SIZE = 32;
const BLUE = [0x1d, 0x4e, 0xd8] as const; // #1d4ed8 as R, G, B

/** Whether pixel (x, y), y from the top, is part of the house. */
function inHouse(x: number, y: number): boolean {
  const roof = y >= 4 && y < 16 && Math.abs(x - 15.5) <= y - 3.5;
  const walls = y >= 16 && y < 28 && x >= 7 && x < 25;
  const door = y >= 19 && x >= 13 && x < 19;
  return (roof || walls) && !door;
}

export function faviconIco(): Buffer {
  const maskRowBytes = Math.ceil(SIZE / 32) * 4;
  const pixelBytes = SIZE * SIZE * 4;
  const imageBytes = 40 + pixelBytes + maskRowBytes * SIZE;
  const ico = Buffer.alloc(6 + 16 + imageBytes);
  // ICONDIR: reserved, type 1 (icon), one image.
  ico.writeUInt16LE(0, 0);
  ico.writeUInt16LE(1, 2);
  ico.writeUInt16LE(1, 4);
  // ICONDIRENTRY: width, height, no palette, reserved, 1 plane, 32 bits, size, offset.
  ico.writeUInt8(SIZE, 6);
  ico.writeUInt8(SIZE, 7);
  ico.writeUInt16LE(1, 10);
  ico.writeUInt16LE(32, 12);
  ico.writeUInt32LE(imageBytes, 14);
  ico.writeUInt32LE(22, 18);
  // BITMAPINFOHEADER: the height counts the bitmap and its mask.
  const header = 22;
  ico.writeUInt32LE(40, header);
  ico.writeInt32LE(SIZE, header + 4);
  ico.writeInt32LE(SIZE * 2, header + 8);
  ico.writeUInt16LE(1, header + 12);
  ico.writeUInt16LE(32, header + 14);
  ico.writeUInt32LE(pixelBytes + maskRowBytes * SIZE, header + 20);
  const pixels = header + 40;
  for (let row = 0; row < SIZE; row += 1) {
    const y = SIZE - 1 - row;
    for (let x = 0; x < SIZE; x += 1) {
      if (!inHouse(x, y)) continue;
      const at = pixels + (row * SIZE + x) * 4;
      ico[at] = BLUE[2];
      ico[at + 1] = BLUE[1];
      ico[at + 2] = BLUE[0];
      ico[at + 3] = 0xff;
    }
  }
  return ico;
}
