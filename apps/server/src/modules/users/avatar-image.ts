/** The image formats an avatar may be, told apart by their first bytes (never by what the client declares). */
export const AVATAR_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;
export type AvatarType = keyof typeof AVATAR_TYPES;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/** The format of an image from its magic bytes, or null when it is none of the four. */
export function sniffImage(data: Buffer): AvatarType | null {
  // PNG: signature, then the IHDR chunk (length 13) first.
  if (data.length >= 24 && data.subarray(0, 8).equals(PNG_SIGNATURE) && ascii(data, 12, 16) === 'IHDR') return 'image/png';
  // JPEG: start-of-image marker followed by another marker.
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 13 && (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a')) return 'image/gif';
  // WebP: a RIFF container whose form type is WEBP, with a VP8/VP8L/VP8X chunk.
  if (data.length >= 16 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP' && ascii(data, 12, 15) === 'VP8') return 'image/webp';
  return null;
}

/** What a client may declare for an avatar: one of the four, or "I don't know". The bytes decide. */
export function isAcceptableDeclaredType(mimetype: string): boolean {
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  return type in AVATAR_TYPES || type === 'image/jpg' || type === 'application/octet-stream';
}
