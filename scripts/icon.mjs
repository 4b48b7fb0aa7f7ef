// Draws images/icon.png (the extension's 128×128 icon): three rule lines and a filter funnel
// on a rounded square. Written as code because these machines have no image tools; run it
// again after changing the drawing.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4; // per axis, for smooth edges

const background = [0x1d, 0x4e, 0x89];
const ink = [0xff, 0xff, 0xff];
const accent = [0xff, 0xb3, 0x47];

function inRoundedSquare(x, y) {
  const r = 24;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** Three rules: lines on the left, of different lengths. */
function inRuleLines(x, y) {
  const lines = [
    [22, 30, 74],
    [22, 52, 62],
    [22, 74, 50],
  ];
  return lines.some(([x0, y0, x1]) => x >= x0 && x <= x1 && y >= y0 && y <= y0 + 9);
}

/** A funnel: a triangle over a short stem, bottom right. */
function inFunnel(x, y) {
  const top = 62;
  const left = 70;
  const right = 112;
  const tip = 90;
  const middle = (left + right) / 2;
  if (y >= top && y <= tip) {
    const half = ((right - left) / 2) * (1 - (y - top) / (tip - top)) + 5 * ((y - top) / (tip - top));
    return Math.abs(x - middle) <= half;
  }
  return y > tip && y <= 108 && Math.abs(x - middle) <= 5;
}

function colourAt(x, y) {
  if (!inRoundedSquare(x, y)) return undefined;
  if (inFunnel(x, y)) return accent;
  if (inRuleLines(x, y)) return ink;
  return background;
}

const rows = [];
for (let py = 0; py < SIZE; py++) {
  const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0, then RGBA
  for (let px = 0; px < SIZE; px++) {
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const colour = colourAt(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
        if (!colour) continue;
        r += colour[0];
        g += colour[1];
        b += colour[2];
        a += 1;
      }
    }
    const offset = 1 + px * 4;
    if (a > 0) {
      row[offset] = Math.round(r / a);
      row[offset + 1] = Math.round(g / a);
      row[offset + 2] = Math.round(b / a);
    }
    row[offset + 3] = Math.round((255 * a) / (SAMPLES * SAMPLES));
  }
  rows.push(row);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../images/icon.png', import.meta.url), png);
