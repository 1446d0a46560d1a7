import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG, built byte by byte: `width`×`height` of one colour (an RGB triple, else mid grey),
 * with an optional tEXt chunk (metadata a store must strip, or bulk to pass a size limit). For the
 * upload tests of the server and the journeys alike.
 */
export function png(width: number, height: number, options: { rgb?: [number, number, number]; text?: string } = {}): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const pixel = options.rgb ? Buffer.from(options.rgb) : Buffer.from([0x80]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = options.rgb ? 2 : 0; // truecolour, else greyscale
  // Each row: filter byte 0, then the pixels.
  const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: width }, () => pixel)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(options.text ? [chunk('tEXt', Buffer.from(`Comment\0${options.text}`, 'latin1'))] : []),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
