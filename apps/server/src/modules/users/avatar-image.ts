import { sniffFile } from '../../lib/files/file-types';

/** The image formats an avatar may be, told apart by their first bytes (never by what the client declares). */
export const AVATAR_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;
export type AvatarType = keyof typeof AVATAR_TYPES;

/** The format of an image from its magic bytes, or null when it is none of the four. */
export function sniffImage(data: Buffer): AvatarType | null {
  const type = sniffFile(data);
  return type !== null && Object.hasOwn(AVATAR_TYPES, type) ? (type as AvatarType) : null;
}

/** What a client may declare for an avatar: one of the four, or "I don't know". The bytes decide. */
export function isAcceptableDeclaredType(mimetype: string): boolean {
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  return type in AVATAR_TYPES || type === 'image/jpg' || type === 'application/octet-stream';
}
