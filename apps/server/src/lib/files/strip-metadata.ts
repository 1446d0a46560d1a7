import type { FileType } from './file-types';

/**
 * Removes what a camera or editor writes about a picture (Exif with its GPS position, XMP, IPTC,
 * comments, text chunks) without re-encoding it: the image data is copied byte for byte.
 *
 * - JPEG: APP1 (Exif, XMP), APP13 (IPTC/Photoshop) and COM segments go, up to the first scan (SOS);
 *   the rest is copied. A photo's Exif orientation is kept, alone, in a new minimal Exif segment,
 *   or the picture would show on its side.
 * - PNG: eXIf, tEXt, iTXt, zTXt and tIME chunks go.
 * - WebP: EXIF and XMP chunks go, VP8X's flags for them are cleared, the RIFF size follows.
 * - GIF: comment extensions and application extensions other than NETSCAPE2.0 / ANIMEXTS1.0 go.
 * - HEIC: the bytes of Exif items, and of XMP items (mime, application/rdf+xml), are overwritten
 *   with zeros in place: sizes and offsets stay as they are.
 * - PDF: returned as it is.
 *
 * Never throws: input it cannot parse comes back unchanged (callers decide what to do with a file
 * that is not what its first bytes promised).
 */
export function stripMetadata(data: Buffer, type: FileType): Buffer {
  try {
    switch (type) {
      case 'image/jpeg':
        return stripJpeg(data);
      case 'image/png':
        return stripPng(data);
      case 'image/webp':
        return stripWebp(data);
      case 'image/gif':
        return stripGif(data);
      case 'image/heic':
        return stripHeic(data);
      default:
        return data;
    }
  } catch {
    return data;
  }
}

class MalformedFile extends Error {}

function malformed(why: string): never {
  throw new MalformedFile(why);
}

const ascii = (data: Buffer, start: number, end: number) => data.toString('latin1', start, end);

// ---------------------------------------------------------------- JPEG

const APP1 = 0xe1;
const APP13 = 0xed;
const COM = 0xfe;
const SOS = 0xda;
const EOI = 0xd9;

/** Markers that stand alone, without a length: TEM and RST0–RST7. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

function stripJpeg(data: Buffer): Buffer {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) malformed('no start-of-image marker');
  const kept: Buffer[] = [data.subarray(0, 2)];
  let orientationKept = false;
  let pos = 2;
  for (;;) {
    if (pos >= data.length) malformed('no scan');
    if (data[pos] !== 0xff) {
      // Bytes between segments: decoders skip them to the next marker, and so do we (keeping them).
      const next = data.indexOf(0xff, pos);
      if (next < 0) malformed('no scan');
      kept.push(data.subarray(pos, next));
      pos = next;
      continue;
    }
    let at = pos + 1;
    while (at < data.length && data[at] === 0xff) at++; // fill bytes
    if (at >= data.length) malformed('truncated marker');
    const marker = data[at]!;
    if (marker === SOS || marker === EOI) {
      // The image data (or, without a scan, the end): copied as it is.
      kept.push(data.subarray(pos));
      break;
    }
    if (standalone(marker)) {
      kept.push(data.subarray(pos, at + 1));
      pos = at + 1;
      continue;
    }
    if (marker === 0x00 || marker === 0xd8) malformed('unexpected marker');
    if (at + 3 > data.length) malformed('truncated segment');
    const length = data.readUInt16BE(at + 1);
    const end = at + 1 + length;
    if (length < 2 || end > data.length) malformed('truncated segment');
    if (marker === APP1 || marker === APP13 || marker === COM) {
      if (marker === APP1 && !orientationKept) {
        const orientation = exifOrientation(data.subarray(at + 3, end));
        if (orientation !== undefined) {
          kept.push(orientationOnlyApp1(orientation));
          orientationKept = true;
        }
      }
    } else {
      kept.push(data.subarray(pos, end));
    }
    pos = end;
  }
  return Buffer.concat(kept);
}

/** The orientation (2–8) an APP1 Exif payload records, or undefined (none, 1, or unreadable). Never throws. */
function exifOrientation(payload: Buffer): number | undefined {
  try {
    if (payload.length < 14 || ascii(payload, 0, 4) !== 'Exif' || payload[4] !== 0) return undefined;
    const tiff = payload.subarray(6);
    const order = ascii(tiff, 0, 2);
    if (order !== 'II' && order !== 'MM') return undefined;
    const le = order === 'II';
    const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
    const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
    if (u16(2) !== 42) return undefined;
    const ifd = u32(4);
    const count = u16(ifd);
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + 12 * i;
      // Orientation: tag 0x0112, SHORT, one value.
      if (u16(entry) === 0x0112 && u16(entry + 2) === 3 && u32(entry + 4) === 1) {
        const value = u16(entry + 8);
        return value >= 2 && value <= 8 ? value : undefined;
      }
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** An APP1 segment holding an Exif block with one tag: Orientation. */
function orientationOnlyApp1(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18); // left-justified in the 4-byte value field
  tiff.writeUInt32BE(0, 22); // no next IFD
  const header = Buffer.from([0xff, APP1, 0, 0, 0x45, 0x78, 0x69, 0x66, 0, 0]); // FF E1, length, "Exif\0\0"
  header.writeUInt16BE(2 + 6 + tiff.length, 2);
  return Buffer.concat([header, tiff]);
}

// ---------------------------------------------------------------- PNG

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME']);

function stripPng(data: Buffer): Buffer {
  if (data.length < 8 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) malformed('no PNG signature');
  const kept: Buffer[] = [data.subarray(0, 8)];
  let pos = 8;
  while (pos < data.length) {
    // length, type, data, CRC
    if (pos + 12 > data.length) malformed('truncated chunk');
    const length = data.readUInt32BE(pos);
    const type = ascii(data, pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > data.length || !/^[A-Za-z]{4}$/.test(type)) malformed('bad chunk');
    if (!PNG_METADATA_CHUNKS.has(type)) kept.push(data.subarray(pos, end));
    pos = end;
    if (type === 'IEND') {
      kept.push(data.subarray(pos));
      break;
    }
  }
  return Buffer.concat(kept);
}

// ---------------------------------------------------------------- WebP

/** VP8X flags: Exif (E) and XMP (X), in `Rsv Rsv I L E X A R`. */
const VP8X_EXIF_XMP = 0x08 | 0x04;

function stripWebp(data: Buffer): Buffer {
  if (data.length < 12 || ascii(data, 0, 4) !== 'RIFF' || ascii(data, 8, 12) !== 'WEBP') malformed('not RIFF/WEBP');
  const riffEnd = 8 + data.readUInt32LE(4);
  if (riffEnd < 12 || riffEnd > data.length) malformed('bad RIFF size');
  const kept: Buffer[] = [];
  let pos = 12;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) malformed('truncated chunk');
    const fourcc = ascii(data, pos, pos + 4);
    const size = data.readUInt32LE(pos + 4);
    const dataEnd = pos + 8 + size;
    if (dataEnd > riffEnd) malformed('truncated chunk');
    // Chunks are padded to an even size; tolerate a last chunk without its pad byte.
    const end = Math.min(dataEnd + (size & 1), riffEnd);
    if (fourcc === 'EXIF' || fourcc === 'XMP ') {
      // dropped
    } else if (fourcc === 'VP8X' && size >= 1) {
      const chunk = Buffer.from(data.subarray(pos, end));
      chunk[8] = chunk[8]! & ~VP8X_EXIF_XMP;
      kept.push(chunk);
    } else {
      kept.push(data.subarray(pos, end));
    }
    pos = end;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  return Buffer.concat([header, body, data.subarray(riffEnd)]);
}

// ---------------------------------------------------------------- GIF

const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

/** Where a run of data sub-blocks (each a length byte and that many bytes, ended by a zero length) ends. */
function afterSubBlocks(data: Buffer, pos: number): number {
  for (;;) {
    if (pos >= data.length) malformed('truncated sub-blocks');
    const size = data[pos]!;
    pos += 1 + size;
    if (size === 0) return pos;
  }
}

const colorTableSize = (packed: number) => (packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0);

function stripGif(data: Buffer): Buffer {
  if (data.length < 13 || !/^GIF8[79]a$/.test(ascii(data, 0, 6))) malformed('not GIF');
  // Header, logical screen descriptor, global colour table.
  let pos = 13 + colorTableSize(data[10]!);
  if (pos > data.length) malformed('truncated colour table');
  const kept: Buffer[] = [data.subarray(0, pos)];
  for (;;) {
    if (pos === data.length) break; // no trailer: decoders stop here too
    const introducer = data[pos];
    if (introducer === 0x3b) {
      kept.push(data.subarray(pos));
      break;
    }
    if (introducer === 0x21) {
      if (pos + 2 > data.length) malformed('truncated extension');
      const label = data[pos + 1];
      const end = afterSubBlocks(data, pos + 2);
      if (end > data.length) malformed('truncated extension');
      let keep = true;
      if (label === 0xfe) keep = false; // comment
      if (label === 0xff) {
        // Application: an 11-byte block (identifier + authentication code) first. XMP is "XMP DataXMP".
        const id = data[pos + 2] === 11 ? ascii(data, pos + 3, pos + 14) : '';
        keep = GIF_KEPT_APPLICATIONS.has(id);
      }
      if (keep) kept.push(data.subarray(pos, end));
      pos = end;
      continue;
    }
    if (introducer === 0x2c) {
      // Image descriptor (10 bytes), local colour table, LZW minimum code size, image data.
      if (pos + 10 > data.length) malformed('truncated image descriptor');
      const start = pos + 10 + colorTableSize(data[pos + 9]!) + 1;
      const end = afterSubBlocks(data, start);
      if (end > data.length) malformed('truncated image');
      kept.push(data.subarray(pos, end));
      pos = end;
      continue;
    }
    malformed('unknown block');
  }
  return Buffer.concat(kept);
}

// ---------------------------------------------------------------- HEIC (ISO-BMFF)

interface Box {
  type: string;
  start: number;
  /** Where the payload starts (after size, type, and a 64-bit size if any). */
  body: number;
  end: number;
}

function readBoxes(data: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  let pos = from;
  while (pos < to) {
    if (pos + 8 > to) malformed('truncated box');
    let size = data.readUInt32BE(pos);
    const type = ascii(data, pos + 4, pos + 8);
    let body = pos + 8;
    if (size === 1) {
      if (pos + 16 > to) malformed('truncated box');
      size = safeNumber(data.readBigUInt64BE(pos + 8));
      body = pos + 16;
    } else if (size === 0) {
      size = to - pos; // to the end of the enclosing box (or file)
    }
    const end = pos + size;
    if (end < body || end > to) malformed('bad box size');
    boxes.push({ type, start: pos, body, end });
    pos = end;
  }
  return boxes;
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) malformed('size out of range');
  return Number(value);
}

/** Reads big-endian fields of a box, never past its end. */
class BoxReader {
  constructor(
    private readonly data: Buffer,
    public pos: number,
    private readonly end: number,
  ) {}

  private take(n: number): number {
    if (this.pos + n > this.end) malformed('field past the end of its box');
    const at = this.pos;
    this.pos += n;
    return at;
  }

  uint(size: number): number {
    if (size === 0) return 0;
    if (size === 1) return this.data[this.take(1)]!;
    if (size === 2) return this.data.readUInt16BE(this.take(2));
    if (size === 3) return this.data.readUIntBE(this.take(3), 3);
    if (size === 4) return this.data.readUInt32BE(this.take(4));
    if (size === 8) return safeNumber(this.data.readBigUInt64BE(this.take(8)));
    return malformed(`field size ${size}`);
  }

  fourcc(): string {
    const at = this.take(4);
    return ascii(this.data, at, at + 4);
  }

  /** A NUL-terminated string (tolerating a missing NUL at the end of the box). */
  cstring(): string {
    const nul = this.data.indexOf(0, this.pos);
    const stop = nul < 0 || nul >= this.end ? this.end : nul;
    const value = this.data.toString('utf8', this.pos, stop);
    this.pos = Math.min(stop + 1, this.end);
    return value;
  }
}

interface ItemLocation {
  constructionMethod: number;
  dataReferenceIndex: number;
  baseOffset: number;
  extents: { offset: number; length: number }[];
}

/** Items whose content is metadata: type Exif, or mime with application/rdf+xml (XMP). */
function metadataItems(data: Buffer, iinf: Box): Set<number> {
  const items = new Set<number>();
  const header = new BoxReader(data, iinf.body, iinf.end);
  const version = header.uint(1);
  header.uint(3); // flags
  header.uint(version === 0 ? 2 : 4); // entry count (the boxes that follow say it again)
  for (const infe of readBoxes(data, header.pos, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const r = new BoxReader(data, infe.body, infe.end);
    const v = r.uint(1);
    r.uint(3);
    let id: number;
    let itemType = 'mime';
    if (v >= 2) {
      id = r.uint(v === 2 ? 2 : 4);
      r.uint(2); // protection index
      itemType = r.fourcc();
      r.cstring(); // name
    } else {
      id = r.uint(2);
      r.uint(2);
      r.cstring(); // name; versions 0 and 1 are MIME items
    }
    if (itemType === 'Exif') items.add(id);
    if (itemType === 'mime') {
      const contentType = r.cstring().split(';')[0]!.trim().toLowerCase();
      if (contentType === 'application/rdf+xml') items.add(id);
    }
  }
  return items;
}

function itemLocations(data: Buffer, iloc: Box): Map<number, ItemLocation> {
  const r = new BoxReader(data, iloc.body, iloc.end);
  const version = r.uint(1);
  r.uint(3);
  if (version > 2) malformed('iloc version');
  const sizes = r.uint(2);
  const offsetSize = (sizes >> 12) & 15;
  const lengthSize = (sizes >> 8) & 15;
  const baseOffsetSize = (sizes >> 4) & 15;
  const indexSize = version >= 1 ? sizes & 15 : 0;
  const count = r.uint(version < 2 ? 2 : 4);
  const locations = new Map<number, ItemLocation>();
  for (let i = 0; i < count; i++) {
    const id = r.uint(version < 2 ? 2 : 4);
    const constructionMethod = version >= 1 ? r.uint(2) & 15 : 0;
    const dataReferenceIndex = r.uint(2);
    const baseOffset = r.uint(baseOffsetSize);
    const extentCount = r.uint(2);
    const extents: ItemLocation['extents'] = [];
    for (let j = 0; j < extentCount; j++) {
      if (indexSize > 0) r.uint(indexSize);
      const offset = r.uint(offsetSize);
      const length = r.uint(lengthSize);
      extents.push({ offset, length });
    }
    locations.set(id, { constructionMethod, dataReferenceIndex, baseOffset, extents });
  }
  return locations;
}

function stripHeic(data: Buffer): Buffer {
  const top = readBoxes(data, 0, data.length);
  if (top[0]?.type !== 'ftyp') malformed('no ftyp box');
  // Never zero the boxes that describe the file, whatever an item location claims.
  const protectedRanges = top.filter((b) => b.type === 'ftyp' || b.type === 'meta' || b.type === 'moov');
  let out: Buffer | null = null;
  for (const meta of top.filter((b) => b.type === 'meta')) {
    // meta is a FullBox: version and flags, then its boxes.
    const children = readBoxes(data, meta.body + 4, meta.end);
    const iinf = children.find((b) => b.type === 'iinf');
    if (!iinf) continue;
    const items = metadataItems(data, iinf);
    if (items.size === 0) continue;
    const iloc = children.find((b) => b.type === 'iloc');
    if (!iloc) malformed('metadata items without iloc');
    const locations = itemLocations(data, iloc);
    const idat = children.find((b) => b.type === 'idat');
    for (const id of items) {
      const location = locations.get(id);
      if (!location) continue; // no location, no bytes
      if (location.dataReferenceIndex !== 0) malformed('item in another file');
      let base: number;
      let limit: number;
      if (location.constructionMethod === 0) {
        base = 0; // file offsets
        limit = data.length;
      } else if (location.constructionMethod === 1 && idat) {
        base = idat.body; // offsets into this meta's idat
        limit = idat.end;
      } else {
        malformed('unsupported item construction');
      }
      for (const extent of location.extents) {
        if (extent.length === 0) malformed('extent of unknown length');
        const start = base + location.baseOffset + extent.offset;
        const end = start + extent.length;
        if (end > limit) malformed('extent past the end');
        if (location.constructionMethod === 0 && protectedRanges.some((b) => start < b.end && end > b.start)) malformed('extent inside a header box');
        out ??= Buffer.from(data);
        out.fill(0, start, end);
      }
    }
  }
  return out ?? data;
}
