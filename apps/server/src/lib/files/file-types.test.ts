import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AVATAR_TYPES, sniffImage } from '../../modules/users/avatar-image';
import { FILE_TYPES, isImage, sniffFile } from './file-types';

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/files');

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];

/** An ISO-BMFF file start: an ftyp box with these brands, then a little more. */
const ftyp = (major: string, ...compatible: string[]) => bytes(u32be(16 + 4 * compatible.length), 'ftyp', major, u32be(0), ...compatible, u32be(8), 'mdat');

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), 'IHDR', u32be(1), u32be(1), [8, 6, 0, 0, 0]);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF\0');
const GIF = bytes('GIF89a', [1, 0, 1, 0, 0, 0, 0]);
const WEBP = bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8 ', [14, 0, 0, 0]);
const PDF = bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');

describe('sniffFile', () => {
  it.each([
    ['application/pdf', PDF],
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/gif', GIF],
    ['image/gif', bytes('GIF87a', [1, 0, 1, 0, 0, 0, 0])],
    ['image/webp', WEBP],
    ['image/webp', bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8L', [14, 0, 0, 0])],
    ['image/webp', bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8X', [10, 0, 0, 0])],
    ['application/pdf', bytes('%PDF-2.0\n')],
  ])('knows %s by its first bytes', (type, data) => {
    expect(sniffFile(data)).toBe(type);
  });

  it.each([
    ['major brand heic', ftyp('heic', 'mif1', 'heic')],
    ['major brand heix', ftyp('heix', 'mif1')],
    ['major brand hevc (sequence)', ftyp('hevc', 'msf1')],
    ['major brand mif1, compatible heic', ftyp('mif1', 'heic')],
    ['major brand mif1 alone', ftyp('mif1')],
    ['major brand msf1 alone', ftyp('msf1', 'iso8')],
    ['compatible heim', ftyp('isom', 'heim')],
    ['compatible heis', ftyp('isom', 'heis')],
    ['compatible hevx', ftyp('isom', 'hevx')],
  ])('knows HEIC/HEIF by its ftyp box: %s', (_, data) => {
    expect(sniffFile(data)).toBe('image/heic');
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['text', bytes('hello, world — not a file type')],
    ['SVG', bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['ZIP (docx)', bytes('PK', [3, 4, 20, 0, 6, 0, 8, 0, 0, 0])],
    ['HTML', bytes('<!doctype html><html>')],
    ['PNG signature without IHDR', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(0), 'IEND', u32be(0), u32be(0), u32be(0))],
    ['JPEG start cut short', bytes([0xff, 0xd8])],
    ['RIFF that is WAVE', bytes('RIFF', [26, 0, 0, 0], 'WAVEfmt ', [16, 0, 0, 0])],
    ['PDF mentioned later', bytes(' %PDF-1.4 \n')],
    ['PDF header without a version', bytes('%PDF-x.y\n')],
    ['MP4 video', ftyp('isom', 'iso2', 'avc1', 'mp41')],
    ['AVIF', ftyp('avif', 'mif1', 'miaf')],
    ['AVIF sequence', ftyp('avis', 'msf1', 'miaf')],
    ['ftyp box larger than the file', bytes(u32be(4096), 'ftypheic', u32be(0))],
    ['ftyp box not at offset 4', bytes(u32be(0), u32be(16), 'ftypheic', u32be(0))],
  ])('answers null for %s', (_, data) => {
    expect(sniffFile(data)).toBeNull();
  });

  it('goes by the bytes alone: a PNG named and declared as PDF is a PNG', () => {
    // sniffFile takes no name or declared type at all; this is the whole contract.
    expect(sniffFile.length).toBe(1);
    expect(sniffFile(PNG)).toBe('image/png');
  });

  it('knows the real fixtures', () => {
    const sniff = (name: string) => sniffFile(readFileSync(path.join(FIXTURES, name)));
    expect(sniff('photo-metadata.jpg')).toBe('image/jpeg');
    expect(sniff('photo-metadata.png')).toBe('image/png');
    expect(sniff('photo-metadata.webp')).toBe('image/webp');
    expect(sniff('photo-metadata.gif')).toBe('image/gif');
    expect(sniff('photo-metadata.heic')).toBe('image/heic');
  });
});

describe('the allow-list', () => {
  it('gives each type its file extension', () => {
    expect(FILE_TYPES).toEqual({
      'application/pdf': 'pdf',
      'image/png': 'png',
      'image/jpeg': 'jpg',
      'image/gif': 'gif',
      'image/webp': 'webp',
      'image/heic': 'heic',
    });
  });

  it('isImage: the accepted image types only', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/heic']) expect(isImage(type)).toBe(true);
    for (const type of ['application/pdf', 'image/svg+xml', 'image/tiff', 'text/plain', '', null, undefined]) expect(isImage(type)).toBe(false);
  });
});

describe('avatars (sniffImage delegates to sniffFile)', () => {
  it('accepts PNG, JPEG, GIF and WebP only', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(JPEG)).toBe('image/jpeg');
    expect(sniffImage(GIF)).toBe('image/gif');
    expect(sniffImage(WEBP)).toBe('image/webp');
    expect(sniffImage(PDF)).toBeNull();
    expect(sniffImage(ftyp('heic', 'mif1'))).toBeNull();
    expect(sniffImage(bytes('not an image'))).toBeNull();
    expect(Object.keys(AVATAR_TYPES)).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
  });
});
