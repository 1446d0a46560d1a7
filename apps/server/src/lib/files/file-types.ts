/**
 * The file types the server accepts, told apart by their first bytes only: never by the file's
 * name or the type a client declares.
 */
/** Each accepted type with the extension a stored file of that type gets. */
export const FILE_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
} as const;
export type FileType = keyof typeof FILE_TYPES;
export type ImageType = Extract<FileType, `image/${string}`>;

/** Whether a type (from sniffFile) is one of the accepted images. */
export function isImage(type: string | null | undefined): type is ImageType {
  return typeof type === 'string' && type.startsWith('image/') && Object.hasOwn(FILE_TYPES, type);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** HEIF brands of HEVC-coded images and sequences. */
const HEVC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
/** The general HEIF brands (image, sequence): HEIC unless the file says it is AVIF. */
const HEIF_BRANDS = new Set(['mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/** The major and compatible brands of an ISO-BMFF file's leading `ftyp` box, or null without one. */
function ftypBrands(data: Buffer): string[] | null {
  if (data.length < 16 || ascii(data, 4, 8) !== 'ftyp') return null;
  const size = data.readUInt32BE(0);
  if (size < 16 || size > data.length) return null;
  const brands = [ascii(data, 8, 12)];
  // Then the minor version (4 bytes), then compatible brands to the end of the box.
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(data, at, at + 4));
  return brands;
}

function isHeic(data: Buffer): boolean {
  const brands = ftypBrands(data);
  if (!brands) return false;
  if (brands.some((b) => HEVC_BRANDS.has(b))) return true;
  return brands.some((b) => HEIF_BRANDS.has(b)) && !brands.some((b) => AVIF_BRANDS.has(b));
}

/** The type of a file from its magic bytes, or null when it is none of the accepted ones. */
export function sniffFile(data: Buffer): FileType | null {
  // PNG: signature, then the IHDR chunk (length 13) first.
  if (data.length >= 24 && data.subarray(0, 8).equals(PNG_SIGNATURE) && ascii(data, 12, 16) === 'IHDR') return 'image/png';
  // JPEG: start-of-image marker followed by another marker.
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 13 && (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a')) return 'image/gif';
  // WebP: a RIFF container whose form type is WEBP, with a VP8/VP8L/VP8X chunk.
  if (data.length >= 16 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP' && ascii(data, 12, 15) === 'VP8') return 'image/webp';
  // PDF: the header comment with its version, "%PDF-1.7", at the very start.
  if (data.length >= 8 && /^%PDF-\d\.\d$/.test(ascii(data, 0, 8))) return 'application/pdf';
  // HEIC/HEIF: an ISO-BMFF file whose ftyp box names a HEIF brand.
  if (isHeic(data)) return 'image/heic';
  return null;
}
