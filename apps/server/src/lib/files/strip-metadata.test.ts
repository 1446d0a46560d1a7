import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffFile, type FileType } from './file-types';
import { stripMetadata } from './strip-metadata';

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/files');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const bytes = (...parts: (Buffer | string | number[])[]) =>
  Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const has = (data: Buffer, text: string) => data.includes(Buffer.from(text, 'latin1'));
const u16be = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

// ------------------------------------------------------------------ JPEG builders

const segment = (marker: number, payload: Buffer) => bytes([0xff, marker, ...u16be(payload.length + 2)], payload);

/** A TIFF block (big-endian) with IFD0 holding Make and, optionally, Orientation, plus a GPS-looking tail. */
function exifTiff(orientation?: number): Buffer {
  const entries = orientation === undefined ? 1 : 2;
  const ifd = [...u16be(entries)];
  ifd.push(...u16be(0x010f), ...u16be(2), ...u32be(4), ...Buffer.from('Cam\0')); // Make, ASCII, 4 bytes inline
  if (orientation !== undefined) ifd.push(...u16be(0x0112), ...u16be(3), ...u32be(1), ...u16be(orientation), 0, 0);
  ifd.push(...u32be(0));
  return bytes('MM', [0, 42], u32be(8), ifd, 'GPSLatitude 37.9715 N GPSLongitude 23.7257 E');
}
const exifApp1 = (orientation?: number) => segment(0xe1, bytes('Exif\0\0', exifTiff(orientation)));
const xmpApp1 = segment(0xe1, bytes('http://ns.adobe.com/xap/1.0/\0', '<x:xmpmeta><dc:creator>Dr Private</dc:creator></x:xmpmeta>'));
const iptcApp13 = segment(0xed, bytes('Photoshop 3.0\0', '8BIM', [4, 4], 'IPTC City SecretCity'));
const comment = segment(0xfe, bytes('private comment'));
const jfifApp0 = segment(0xe0, bytes('JFIF\0', [1, 1, 0, 0, 1, 0, 1, 0, 0]));
const iccApp2 = segment(0xe2, bytes('ICC_PROFILE\0', [1, 1], 'fake icc profile bytes'));
const dqt = segment(0xdb, bytes([0], Buffer.alloc(64, 1)));
const sof0 = segment(0xc0, bytes([8, 0, 8, 0, 8, 1, 1, 0x11, 0]));
const dht = segment(0xc4, bytes([0], Buffer.alloc(16, 0), [0]));
const sos = segment(0xda, bytes([1, 1, 0, 0, 63, 0]));
/** Entropy-coded data: stuffed FF 00 and a restart marker, and text that only looks like metadata. */
const scanData = bytes([0x12, 0x34, 0xff, 0x00, 0x56, 0xff, 0xd0, 0x78], 'GPSLatitude-in-pixels', [0x9a]);
const eoi = bytes([0xff, 0xd9]);
const imageTail = bytes(sos, scanData, eoi);

const jpeg = (...segments: Buffer[]) => bytes([0xff, 0xd8], ...segments, dqt, sof0, dht, imageTail);

/** The markers of the segments before the first scan. */
function jpegMarkers(data: Buffer): number[] {
  const markers: number[] = [];
  let pos = 2;
  while (data[pos + 1] !== 0xda) {
    markers.push(data[pos + 1]!);
    pos += 2 + data.readUInt16BE(pos + 2);
  }
  return markers;
}

describe('JPEG', () => {
  it('drops Exif, XMP, IPTC and comments, keeps every other segment and the image data byte for byte', () => {
    const input = jpeg(jfifApp0, exifApp1(), xmpApp1, iptcApp13, iccApp2, comment);
    expect(has(input, 'GPSLatitude 37')).toBe(true);
    const out = stripMetadata(input, 'image/jpeg');
    expect(out).toEqual(bytes([0xff, 0xd8], jfifApp0, iccApp2, dqt, sof0, dht, imageTail));
    for (const text of ['GPSLatitude 37', 'Exif', 'xmpmeta', 'SecretCity', 'private comment']) expect(has(out, text)).toBe(false);
    expect(sniffFile(out)).toBe('image/jpeg');
  });

  it('copies everything from the first scan on as it is, even bytes that look like metadata', () => {
    const out = stripMetadata(jpeg(exifApp1()), 'image/jpeg');
    expect(out.subarray(out.length - imageTail.length)).toEqual(imageTail);
    expect(has(out, 'GPSLatitude-in-pixels')).toBe(true);
  });

  it('keeps a photo’s orientation, alone, in a minimal Exif block', () => {
    const out = stripMetadata(jpeg(jfifApp0, exifApp1(6), xmpApp1), 'image/jpeg');
    expect(jpegMarkers(out)).toEqual([0xe0, 0xe1, 0xdb, 0xc0, 0xc4]);
    expect(has(out, 'GPSLatitude 37')).toBe(false);
    expect(has(out, 'Cam\0')).toBe(false);
    const app1 = out.subarray(2 + jfifApp0.length, 2 + jfifApp0.length + 36);
    expect(app1).toEqual(
      bytes([0xff, 0xe1, 0, 34], 'Exif\0\0', 'MM', [0, 42], u32be(8), u16be(1), u16be(0x0112), u16be(3), u32be(1), u16be(6), [0, 0], u32be(0)),
    );
    // Stripping again changes nothing: the orientation block is found and rebuilt the same.
    expect(stripMetadata(out, 'image/jpeg')).toEqual(out);
  });

  it('drops an Exif block whose orientation is the default (1)', () => {
    expect(jpegMarkers(stripMetadata(jpeg(exifApp1(1)), 'image/jpeg'))).toEqual([0xdb, 0xc0, 0xc4]);
  });

  it('reads past fill bytes before a marker', () => {
    const padded = bytes([0xff, 0xd8, 0xff, 0xff], exifApp1(), dqt, sof0, dht, imageTail);
    const out = stripMetadata(padded, 'image/jpeg');
    expect(has(out, 'GPSLatitude 37')).toBe(false);
    expect(out.subarray(out.length - imageTail.length)).toEqual(imageTail);
  });

  it('still strips a file cut short inside its image data', () => {
    const whole = jpeg(exifApp1());
    const cut = whole.subarray(0, whole.length - 6);
    const out = stripMetadata(cut, 'image/jpeg');
    expect(has(out, 'GPSLatitude 37')).toBe(false);
    expect(out.length).toBeLessThan(cut.length);
  });

  it('returns a file it cannot parse unchanged, and never throws', () => {
    const whole = jpeg(exifApp1(6), xmpApp1);
    const truncatedSegment = whole.subarray(0, 40);
    expect(stripMetadata(truncatedSegment, 'image/jpeg')).toBe(truncatedSegment);
    const notJpeg = Buffer.from('not a jpeg at all');
    expect(stripMetadata(notJpeg, 'image/jpeg')).toBe(notJpeg);
    const badLength = bytes([0xff, 0xd8, 0xff, 0xe1, 0, 1], imageTail);
    expect(stripMetadata(badLength, 'image/jpeg')).toBe(badLength);
    for (let end = 0; end <= whole.length; end++) {
      const part = whole.subarray(0, end);
      const out = stripMetadata(part, 'image/jpeg');
      // Either the header parsed and the Exif is gone, or the file comes back as it was.
      if (out !== part) expect(has(out, 'GPSLatitude 37')).toBe(false);
    }
  });

  it('strips a real photo: GPS, camera, XMP, IPTC and comment gone, orientation and image data kept', () => {
    const input = fixture('photo-metadata.jpg');
    const out = stripMetadata(input, 'image/jpeg');
    for (const text of ['HealthBookTestCam', 'Fixture One', 'Dr Private Person', 'SecretCity', 'private comment', 'Photoshop']) {
      expect(has(input, text)).toBe(true);
      expect(has(out, text)).toBe(false);
    }
    // The GPS IFD pointer (tag 0x8825) is gone with the Exif block.
    expect(out.includes(Buffer.from([0x88, 0x25]))).toBe(false);
    const scanAt = (data: Buffer) => data.indexOf(Buffer.from([0xff, 0xda]));
    expect(out.subarray(scanAt(out))).toEqual(input.subarray(scanAt(input)));
    expect(jpegMarkers(out)).toEqual([0xe0, 0xe1, 0xdb, 0xdb, 0xc0, 0xc4, 0xc4, 0xc4, 0xc4]);
    expect(out.length).toBeLessThan(input.length / 2);
  });
});

// ------------------------------------------------------------------ PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const chunk = (type: string, data: Buffer | string) => {
  const body = bytes(type, typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  return bytes(u32be(body.length - 4), body, u32be(crc32(body)));
};
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ihdr = chunk('IHDR', bytes(u32be(1), u32be(1), [8, 2, 0, 0, 0]));
const idat1 = chunk('IDAT', bytes([0x78, 0x9c, 0x62, 0xf8]));
const idat2 = chunk('IDAT', bytes([0xcf, 0xc0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00]));
const iend = chunk('IEND', Buffer.alloc(0));
const gama = chunk('gAMA', bytes(u32be(45455)));

describe('PNG', () => {
  it('drops eXIf, tEXt, iTXt, zTXt and tIME, keeps the other chunks byte for byte', () => {
    const input = bytes(
      PNG_SIG,
      ihdr,
      gama,
      chunk('eXIf', exifTiff(6)),
      chunk('tEXt', 'Comment\0private comment'),
      chunk('iTXt', 'XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta>Dr Private</x:xmpmeta>'),
      chunk('zTXt', bytes('Author\0\0', [0x78, 0x9c, 1, 2, 3])),
      idat1,
      chunk('tIME', bytes([0x07, 0xe4, 1, 1, 10, 0, 0])),
      idat2,
      iend,
    );
    const out = stripMetadata(input, 'image/png');
    expect(out).toEqual(bytes(PNG_SIG, ihdr, gama, idat1, idat2, iend));
    expect(sniffFile(out)).toBe('image/png');
  });

  it('returns a file with a chunk running past its end unchanged', () => {
    const input = bytes(PNG_SIG, ihdr, chunk('tEXt', 'Comment\0x').subarray(0, 10));
    expect(stripMetadata(input, 'image/png')).toBe(input);
  });

  it('strips a real image: the clean file ImageMagick wrote comes back', () => {
    const input = fixture('photo-metadata.png');
    const out = stripMetadata(input, 'image/png');
    for (const text of ['HealthBookTestCam', 'Dr Private Person', 'private comment', 'eXIf', 'tEXt', 'iTXt', 'tIME']) {
      expect(has(input, text)).toBe(true);
      expect(has(out, text)).toBe(false);
    }
    const idat = (data: Buffer) => data.subarray(data.indexOf('IDAT') - 4, data.indexOf('IEND') - 4);
    expect(idat(out)).toEqual(idat(input));
    expect(out.subarray(0, 33)).toEqual(input.subarray(0, 33)); // signature and IHDR
  });
});

// ------------------------------------------------------------------ WebP

const riffChunk = (fourcc: string, data: Buffer) => bytes(fourcc, u32le(data.length), data, data.length % 2 ? [0] : []);
const webp = (...chunks: Buffer[]) => {
  const body = bytes('WEBP', ...chunks);
  return bytes('RIFF', u32le(body.length), body);
};
/** VP8X flags: ICC 0x20, alpha 0x10, Exif 0x08, XMP 0x04, animation 0x02. */
const vp8x = (flags: number) => riffChunk('VP8X', bytes([flags, 0, 0, 0], [0, 0, 0], [0, 0, 0]));
const vp8 = riffChunk('VP8 ', bytes([0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 1, 0, 1, 0, 0xde, 0xad, 0xbe, 0xef]));
const alph = riffChunk('ALPH', bytes([0, 1, 2]));
const iccp = riffChunk('ICCP', bytes('icc profile'));

describe('WebP', () => {
  it('drops EXIF and XMP chunks, clears their VP8X flags and fixes the RIFF size', () => {
    const input = webp(vp8x(0x20 | 0x10 | 0x08 | 0x04), iccp, alph, vp8, riffChunk('EXIF', exifTiff(6)), riffChunk('XMP ', bytes('<x:xmpmeta>Dr Private</x:xmpmeta>!')));
    const out = stripMetadata(input, 'image/webp');
    expect(out).toEqual(webp(vp8x(0x20 | 0x10), iccp, alph, vp8));
    expect(out.readUInt32LE(4)).toBe(out.length - 8);
    expect(has(out, 'GPSLatitude')).toBe(false);
    expect(sniffFile(out)).toBe('image/webp');
  });

  it('handles an odd-sized metadata chunk before the image data', () => {
    const input = webp(vp8x(0x08), riffChunk('EXIF', bytes(exifTiff(), 'x')), vp8);
    expect(input.length % 2).toBe(0);
    expect(stripMetadata(input, 'image/webp')).toEqual(webp(vp8x(0), vp8));
  });

  it('leaves a simple (VP8 only) file as it is, and returns a truncated one unchanged', () => {
    const simple = webp(vp8);
    expect(stripMetadata(simple, 'image/webp')).toEqual(simple);
    const truncated = webp(vp8x(0x08), riffChunk('EXIF', exifTiff()), vp8).subarray(0, 40);
    expect(stripMetadata(truncated, 'image/webp')).toBe(truncated);
  });

  it('strips a real image: the VP8 bitstream is the same', () => {
    const input = fixture('photo-metadata.webp');
    const out = stripMetadata(input, 'image/webp');
    for (const text of ['HealthBookTestCam', 'Dr Private Person', 'EXIF', 'XMP ']) {
      expect(has(input, text)).toBe(true);
      expect(has(out, text)).toBe(false);
    }
    const vp8Chunk = (data: Buffer) => {
      const at = data.indexOf('VP8 ');
      return data.subarray(at, at + 8 + data.readUInt32LE(at + 4));
    };
    expect(vp8Chunk(out)).toEqual(vp8Chunk(input));
    expect(out[20]! & 0x0c).toBe(0); // VP8X flags
    expect(out.readUInt32LE(4)).toBe(out.length - 8);
  });
});

// ------------------------------------------------------------------ GIF

const subBlocks = (data: Buffer) => {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const piece = data.subarray(at, at + 255);
    parts.push(bytes([piece.length], piece));
  }
  return bytes(...parts, [0]);
};
const gifHeader = bytes('GIF89a', [2, 0, 2, 0, 0x80, 0, 0], [0, 0, 0, 255, 255, 255]); // 2x2, 2-colour global table
const netscape = bytes([0x21, 0xff, 11], 'NETSCAPE2.0', [3, 1, 0, 0, 0]);
const graphicControl = bytes([0x21, 0xf9, 4, 0, 10, 0, 0, 0]);
const imageBlock = bytes([0x2c, 0, 0, 0, 0, 2, 0, 2, 0, 0], [2], subBlocks(bytes([0x84, 0x1d, 0x81, 0x7a, 0x50])));
const gifComment = bytes([0x21, 0xfe], subBlocks(bytes('private comment')));
const xmpExtension = bytes([0x21, 0xff, 11], 'XMP DataXMP', subBlocks(bytes('<x:xmpmeta>Dr Private</x:xmpmeta>')).subarray(0));
const otherApplication = bytes([0x21, 0xff, 11], 'ICCRGBG1012', subBlocks(bytes('profile')));

describe('GIF', () => {
  it('drops comments and application extensions other than the looping ones, keeps the frames', () => {
    const input = bytes(gifHeader, netscape, gifComment, xmpExtension, otherApplication, graphicControl, imageBlock, graphicControl, imageBlock, [0x3b]);
    const out = stripMetadata(input, 'image/gif');
    expect(out).toEqual(bytes(gifHeader, netscape, graphicControl, imageBlock, graphicControl, imageBlock, [0x3b]));
    expect(sniffFile(out)).toBe('image/gif');
  });

  it('keeps ANIMEXTS1.0 and a file without a trailer', () => {
    const animexts = bytes([0x21, 0xff, 11], 'ANIMEXTS1.0', [3, 1, 0, 0, 0]);
    const input = bytes(gifHeader, animexts, gifComment, imageBlock);
    expect(stripMetadata(input, 'image/gif')).toEqual(bytes(gifHeader, animexts, imageBlock));
  });

  it('returns a truncated file unchanged', () => {
    const input = bytes(gifHeader, gifComment.subarray(0, 6));
    expect(stripMetadata(input, 'image/gif')).toBe(input);
  });

  it('strips a real image: the file ImageMagick wrote comes back', () => {
    const input = fixture('photo-metadata.gif');
    const out = stripMetadata(input, 'image/gif');
    expect(has(input, 'Dr Private Person')).toBe(true);
    expect(has(out, 'Dr Private Person')).toBe(false);
    expect(has(out, 'private comment')).toBe(false);
    expect(has(out, 'XMP Data')).toBe(false);
    const imageAt = (data: Buffer) => data.lastIndexOf(Buffer.from([0x2c, 0, 0, 0, 0]));
    expect(out.subarray(imageAt(out))).toEqual(input.subarray(imageAt(input)));
  });
});

// ------------------------------------------------------------------ HEIC (ISO-BMFF)

const box = (type: string, ...payload: Buffer[]) => {
  const body = bytes(...payload);
  return bytes(u32be(8 + body.length), type, body);
};
const fullBox = (type: string, version: number, flags: number, ...payload: Buffer[]) =>
  box(type, bytes([version, (flags >> 16) & 0xff, (flags >> 8) & 0xff, flags & 0xff]), ...payload);
const infe = (id: number, itemType: string, contentType?: string) =>
  fullBox('infe', 2, 0, bytes(u16be(id), [0, 0], itemType, 'name\0', contentType === undefined ? [] : `${contentType}\0`));

interface Extent {
  offset: number;
  length: number;
}
/** iloc version 1 (construction methods), 4-byte offsets and lengths, no base offset. */
const iloc = (items: { id: number; method: number; extents: Extent[] }[]) =>
  fullBox(
    'iloc',
    1,
    0,
    bytes([0x44, 0x00], u16be(items.length)),
    ...items.map((item) =>
      bytes(u16be(item.id), u16be(item.method), u16be(0), u16be(item.extents.length), ...item.extents.map((e) => bytes(u32be(e.offset), u32be(e.length)))),
    ),
  );

const HEVC_DATA = bytes('HEVC-IMAGE-DATA-', Buffer.alloc(40, 0xab));
const EXIF_ITEM = bytes(u32be(0), 'Exif\0\0', exifTiff(6));
const XMP_ITEM = bytes('<x:xmpmeta><rdf:RDF>Dr Private, GPSLatitude 37.9715</rdf:RDF></x:xmpmeta>');
const ftyp = box('ftyp', bytes('heic', u32be(0), 'mif1heicmiaf'));

/**
 * ftyp, meta (hdlr, pitm, iinf, iloc, optional idat), mdat: the image item and, by default, the
 * Exif and XMP items in mdat. iloc holds file offsets, so the meta box is built twice: once to
 * learn its size.
 */
function heic(opts: { exifInIdat?: boolean; withMetadata?: boolean } = {}) {
  const withMetadata = opts.withMetadata ?? true;
  const mdatItems = withMetadata && !opts.exifInIdat ? [HEVC_DATA, EXIF_ITEM, XMP_ITEM] : withMetadata ? [HEVC_DATA, XMP_ITEM] : [HEVC_DATA];
  const buildMeta = (mdatBody: number) => {
    const extents: Extent[] = [];
    let at = mdatBody;
    for (const item of mdatItems) {
      extents.push({ offset: at, length: item.length });
      at += item.length;
    }
    const locations = [{ id: 1, method: 0, extents: [extents[0]!] }];
    if (withMetadata && opts.exifInIdat) {
      locations.push({ id: 2, method: 1, extents: [{ offset: 4, length: EXIF_ITEM.length }] });
      locations.push({ id: 3, method: 0, extents: [extents[1]!] });
    } else if (withMetadata) {
      locations.push({ id: 2, method: 0, extents: [extents[1]!] }, { id: 3, method: 0, extents: [extents[2]!] });
    }
    const entries = withMetadata ? [infe(1, 'hvc1'), infe(2, 'Exif'), infe(3, 'mime', 'application/rdf+xml')] : [infe(1, 'hvc1')];
    return fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, bytes(u32be(0), 'pict', Buffer.alloc(12), 'HealthBook\0')),
      fullBox('pitm', 0, 0, bytes(u16be(1))),
      fullBox('iinf', 0, 0, bytes(u16be(entries.length)), ...entries),
      iloc(locations),
      ...(withMetadata && opts.exifInIdat ? [box('idat', bytes('pad!'), EXIF_ITEM)] : []),
    );
  };
  const metaSize = buildMeta(0).length;
  const meta = buildMeta(ftyp.length + metaSize + 8);
  return { file: bytes(ftyp, meta, box('mdat', ...mdatItems)), metaEnd: ftyp.length + meta.length };
}

describe('HEIC', () => {
  it('zeroes the Exif and XMP items in place: same size, image item and boxes untouched', () => {
    const { file: input } = heic();
    expect(sniffFile(input)).toBe('image/heic');
    const out = stripMetadata(input, 'image/heic');
    expect(out.length).toBe(input.length);
    expect(has(out, 'GPSLatitude')).toBe(false);
    expect(has(out, 'Dr Private')).toBe(false);
    const exifAt = input.indexOf(EXIF_ITEM);
    const xmpAt = input.indexOf(XMP_ITEM);
    expect(out.subarray(exifAt, exifAt + EXIF_ITEM.length)).toEqual(Buffer.alloc(EXIF_ITEM.length));
    expect(out.subarray(xmpAt, xmpAt + XMP_ITEM.length)).toEqual(Buffer.alloc(XMP_ITEM.length));
    // Everything else, including the image item and the meta box, is byte for byte the same.
    expect(out.subarray(0, exifAt)).toEqual(input.subarray(0, exifAt));
    expect(has(out, HEVC_DATA.toString('latin1'))).toBe(true);
    expect(input).not.toEqual(out); // the input buffer itself is not modified
    expect(has(input, 'GPSLatitude')).toBe(true);
  });

  it('zeroes an Exif item kept in the meta box’s idat', () => {
    const { file: input } = heic({ exifInIdat: true });
    const out = stripMetadata(input, 'image/heic');
    expect(out.length).toBe(input.length);
    expect(has(out, 'GPSLatitude')).toBe(false);
    const exifAt = input.indexOf(EXIF_ITEM);
    expect(out.subarray(exifAt, exifAt + EXIF_ITEM.length)).toEqual(Buffer.alloc(EXIF_ITEM.length));
    expect(out.subarray(0, exifAt)).toEqual(input.subarray(0, exifAt));
  });

  it('returns a file without metadata items as it is', () => {
    const { file: input } = heic({ withMetadata: false });
    expect(stripMetadata(input, 'image/heic')).toBe(input);
  });

  it('refuses to zero an item that claims to live in the meta box, returning the file unchanged', () => {
    const { file: input, metaEnd } = heic();
    // Point the Exif item's extent at offset 40 (inside meta): a crafted file.
    const exifAt = input.indexOf(EXIF_ITEM);
    const crafted = Buffer.from(input);
    const ilocAt = crafted.indexOf('iloc');
    const offsetField = crafted.indexOf(Buffer.from(u32be(exifAt)), ilocAt);
    expect(offsetField).toBeGreaterThan(ilocAt);
    expect(offsetField).toBeLessThan(metaEnd);
    crafted.writeUInt32BE(40, offsetField);
    expect(stripMetadata(crafted, 'image/heic')).toBe(crafted);
  });

  it('returns a truncated file unchanged', () => {
    const { file } = heic();
    const truncated = file.subarray(0, 120);
    expect(stripMetadata(truncated, 'image/heic')).toBe(truncated);
  });

  it('strips a real HEIC: Exif and XMP items zeroed, image data and boxes the same', () => {
    const input = fixture('photo-metadata.heic');
    const out = stripMetadata(input, 'image/heic');
    expect(out.length).toBe(input.length);
    for (const text of ['HealthBookTestCam', 'Fixture One', 'Dr Private Person']) {
      expect(has(input, text)).toBe(true);
      expect(has(out, text)).toBe(false);
    }
    // Only bytes inside mdat changed: ftyp and meta (item locations, properties) are intact.
    const mdatAt = input.indexOf('mdat') - 4;
    expect(out.subarray(0, mdatAt + 8)).toEqual(input.subarray(0, mdatAt + 8));
    // The image item is the first extent in mdat (heif-enc writes it first): unchanged.
    const changedAt = input.findIndex((b, i) => b !== out[i]);
    expect(changedAt).toBeGreaterThan(mdatAt + 8 + 40);
  });
});

// ------------------------------------------------------------------ everything else

describe('any type', () => {
  it('returns a PDF as it is', () => {
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <</Author (Dr Private)>> endobj\n%%EOF\n');
    expect(stripMetadata(pdf, 'application/pdf')).toBe(pdf);
  });

  it('never throws, whatever the bytes', () => {
    const types: FileType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'application/pdf'];
    const samples = [Buffer.alloc(0), Buffer.from([0xff]), Buffer.from([0xff, 0xd8, 0xff]), jpeg(exifApp1()), heic().file, webp(vp8)];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 200; i++) {
      const base = samples[i % samples.length]!;
      const mutated = Buffer.from(base);
      for (let k = 0; k < 4 && mutated.length > 0; k++) mutated[random() % mutated.length] = random() & 0xff;
      samples.push(mutated.subarray(0, random() % (mutated.length + 1)));
    }
    for (const sample of samples) for (const type of types) expect(() => stripMetadata(sample, type)).not.toThrow();
  });
});
