import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserDto } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn } from './factories';

/**
 * Avatars are served without sign-in (the address is the capability), so what a camera or an
 * editor wrote into the picture must not travel with it: the same stripping as documents, for
 * every format an avatar may be. The fixtures are real images made by ImageMagick and ExifTool
 * (test/fixtures/files/README.md) carrying GPS, camera, XMP, IPTC and comments.
 */

const t = useTestApp({ config: { authRateLimit: 1000 } });

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/files');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const has = (data: Buffer, text: string) => data.includes(Buffer.from(text, 'latin1'));
const ascii = (data: Buffer, start: number, end: number) => data.toString('latin1', start, end);

let org: { id: number };
beforeAll(async () => {
  org = await buildOrganization(t.app, { name: 'avatars', org_name: 'Avatar Clinic' });
});

async function signedIn() {
  const user = await buildUser(t.app, { org });
  return { user, token: (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access };
}

function upload(token: string, data: Buffer, filename: string, type: string) {
  const boundary = `----hbtest${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({ method: 'POST', url: '/api/v1/users/avatar/', headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
}

// ---------------------------------------------------------------- reading the formats back

/** PNG: every chunk's CRC is right, and the IDAT stream inflates to exactly the rows IHDR describes. */
function decodePng(data: Buffer): { chunks: string[]; width: number; height: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let pos = 8;
  let ihdr: Buffer | undefined;
  while (pos < data.length) {
    const length = data.readUInt32BE(pos);
    const type = ascii(data, pos + 4, pos + 8);
    const body = data.subarray(pos + 8, pos + 8 + length);
    expect(data.readUInt32BE(pos + 8 + length), `CRC of ${type}`).toBe(crc32(data.subarray(pos + 4, pos + 8 + length)));
    chunks.push(type);
    if (type === 'IHDR') ihdr = body;
    if (type === 'IDAT') idat.push(body);
    pos += 12 + length;
    if (type === 'IEND') break;
  }
  expect(ihdr).toBeDefined();
  const width = ihdr!.readUInt32BE(0);
  const height = ihdr!.readUInt32BE(4);
  const bitDepth = ihdr![8]!;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[ihdr![9]!]!;
  expect(ihdr![12]).toBe(0); // not interlaced: one pass of rows
  const pixels = inflateSync(Buffer.concat(idat));
  expect(pixels.length).toBe(height * (1 + Math.ceil((width * channels * bitDepth) / 8)));
  for (let row = 0; row < height; row++) expect(pixels[row * (pixels.length / height)]!).toBeLessThanOrEqual(4); // a valid filter type
  return { chunks, width, height };
}

/** JPEG: the segments up to the scan, well formed; answers their markers and the scan onwards. */
function jpegSegments(data: Buffer): { markers: number[]; payloads: Buffer[]; scan: Buffer } {
  expect([data[0], data[1]]).toEqual([0xff, 0xd8]);
  const markers: number[] = [];
  const payloads: Buffer[] = [];
  let pos = 2;
  while (data[pos] === 0xff && data[pos + 1] !== 0xda) {
    const length = data.readUInt16BE(pos + 2);
    markers.push(data[pos + 1]!);
    payloads.push(data.subarray(pos + 4, pos + 2 + length));
    pos += 2 + length;
  }
  expect([data[pos], data[pos + 1]]).toEqual([0xff, 0xda]);
  expect([data[data.length - 2], data[data.length - 1]]).toEqual([0xff, 0xd9]);
  return { markers, payloads, scan: data.subarray(pos) };
}

/** WebP: the RIFF size is the file's, every chunk fits; answers the chunks. */
function webpChunks(data: Buffer): Map<string, Buffer> {
  expect(ascii(data, 0, 4)).toBe('RIFF');
  expect(ascii(data, 8, 12)).toBe('WEBP');
  expect(data.readUInt32LE(4) + 8).toBe(data.length);
  const chunks = new Map<string, Buffer>();
  let pos = 12;
  while (pos < data.length) {
    const size = data.readUInt32LE(pos + 4);
    expect(pos + 8 + size).toBeLessThanOrEqual(data.length);
    chunks.set(ascii(data, pos, pos + 4), data.subarray(pos + 8, pos + 8 + size));
    pos += 8 + size + (size & 1);
  }
  expect(pos).toBe(data.length);
  return chunks;
}

/** GIF: the blocks to the trailer; answers the extensions (label, first sub-block) and the image blocks. */
function gifBlocks(data: Buffer): { extensions: Array<{ label: number; first: string }>; images: Buffer[] } {
  expect(ascii(data, 0, 6)).toMatch(/^GIF8[79]a$/);
  const table = (packed: number) => (packed & 0x80 ? 3 * (1 << ((packed & 7) + 1)) : 0);
  const subBlocks = (at: number) => {
    while (data[at] !== 0) at += 1 + data[at]!;
    return at + 1;
  };
  let pos = 13 + table(data[10]!);
  const extensions: Array<{ label: number; first: string }> = [];
  const images: Buffer[] = [];
  while (data[pos] !== 0x3b) {
    expect(pos).toBeLessThan(data.length);
    if (data[pos] === 0x21) {
      extensions.push({ label: data[pos + 1]!, first: ascii(data, pos + 3, pos + 3 + data[pos + 2]!) });
      pos = subBlocks(pos + 2);
    } else {
      expect(data[pos]).toBe(0x2c);
      const end = subBlocks(pos + 10 + table(data[pos + 9]!) + 1);
      images.push(data.subarray(pos, end));
      pos = end;
    }
  }
  expect(pos).toBe(data.length - 1);
  return { extensions, images };
}

/** The marker texts the fixtures carry (test/fixtures/files/README.md). */
const MARKERS = ['HealthBookTestCam', 'Dr Private Person', 'SecretCity', 'private comment', 'xmpmeta', 'GPS'];

const FORMATS = [
  {
    file: 'photo-metadata.png',
    type: 'image/png',
    check(input: Buffer, out: Buffer) {
      const before = decodePng(input);
      const after = decodePng(out);
      expect(before.chunks.filter((c) => ['eXIf', 'iTXt', 'tEXt', 'zTXt'].includes(c)).length).toBeGreaterThan(0);
      expect(after.chunks.filter((c) => ['eXIf', 'iTXt', 'tEXt', 'zTXt', 'tIME'].includes(c))).toEqual([]);
      expect([after.width, after.height]).toEqual([before.width, before.height]);
    },
  },
  {
    file: 'photo-metadata.jpg',
    type: 'image/jpeg',
    check(input: Buffer, out: Buffer) {
      const before = jpegSegments(input);
      const after = jpegSegments(out);
      expect(before.markers).toEqual(expect.arrayContaining([0xe1, 0xed, 0xfe]));
      // No IPTC (APP13) and no comment; one APP1 left, holding the orientation alone.
      expect(after.markers.filter((m) => m === 0xed || m === 0xfe)).toEqual([]);
      const app1 = after.payloads.filter((_, i) => after.markers[i] === 0xe1);
      expect(app1).toHaveLength(1);
      expect(app1[0]!.length).toBe(6 + 26); // "Exif\0\0" and one IFD entry: Orientation
      expect(app1[0]!.includes(Buffer.from([0x88, 0x25]))).toBe(false); // no GPS IFD pointer
      // The image data is the original's, byte for byte; the tables it needs are all there.
      expect(after.scan.equals(before.scan)).toBe(true);
      const kept = before.markers.filter((m) => m !== 0xe1 && m !== 0xed && m !== 0xfe);
      expect(after.markers).toEqual([kept[0], 0xe1, ...kept.slice(1)]);
    },
  },
  {
    file: 'photo-metadata.webp',
    type: 'image/webp',
    check(input: Buffer, out: Buffer) {
      const before = webpChunks(input);
      const after = webpChunks(out);
      expect(before.has('EXIF') && before.has('XMP ')).toBe(true);
      expect([...after.keys()].filter((k) => k === 'EXIF' || k === 'XMP ')).toEqual([]);
      // The bitstream is the original's; VP8X no longer announces Exif or XMP.
      expect(after.get('VP8 ')!.equals(before.get('VP8 ')!)).toBe(true);
      expect(after.get('VP8X')![0]! & 0x0c).toBe(0);
    },
  },
  {
    file: 'photo-metadata.gif',
    type: 'image/gif',
    check(input: Buffer, out: Buffer) {
      const before = gifBlocks(input);
      const after = gifBlocks(out);
      expect(before.extensions.some((e) => e.label === 0xfe || e.first === 'XMP DataXMP')).toBe(true);
      expect(after.extensions.filter((e) => e.label === 0xfe || (e.label === 0xff && e.first !== 'NETSCAPE2.0'))).toEqual([]);
      expect(after.images).toEqual(before.images);
    },
  },
] as const;

describe('avatars lose their metadata', () => {
  for (const format of FORMATS) {
    it(`${format.type}: uploaded with GPS, camera, XMP and comments, served by its public address without them, still an image`, async () => {
      const input = fixture(format.file);
      expect(MARKERS.filter((m) => has(input, m)).length).toBeGreaterThanOrEqual(3);
      const { token } = await signedIn();
      const res = await upload(token, input, format.file, format.type);
      expect(res.statusCode).toBe(200);
      const url = res.json<UserDto>().profile_picture!;

      const image = await t.app.inject({ method: 'GET', url }); // no token: the public address
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe(format.type);
      const out = image.rawPayload;
      for (const marker of MARKERS) expect(has(out, marker), marker).toBe(false);
      format.check(input, out);
    });
  }

  it('an avatar stored before stripping existed is served without its metadata', async () => {
    const { user } = await signedIn();
    const input = fixture('photo-metadata.jpg');
    const key = `avatars/${user.id}-${'L'.repeat(24)}.jpg`;
    await t.app.storage.put(key, input);
    await t.db.updateTable('users').set({ avatar_key: key, avatar_content_type: 'image/jpeg' }).where('id', '=', user.id).execute();
    const image = await t.app.inject({ method: 'GET', url: `/api/v1/users/avatar/${key.slice('avatars/'.length)}` });
    expect(image.statusCode).toBe(200);
    for (const marker of MARKERS) expect(has(image.rawPayload, marker), marker).toBe(false);
    expect(jpegSegments(image.rawPayload).scan.equals(jpegSegments(input).scan)).toBe(true);
  });
});
