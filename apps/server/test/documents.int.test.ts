// On PostgreSQL too (vitest.config.ts): a second process on the same database.
import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment, DocumentDto, FolderDto, HealthRecord, RecordPage } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { multipartBody, type Part } from './multipart';
import { bearer, buildOrganization, buildUser, PNG_1X1, signIn, type BuiltUser } from './factories';
import { onePagePdf } from '../src/db/seed/demo-files';

/**
 * Attachments (the spec's /api/v1/hr/{id}/attachment/ routes) and the Document Center
 * (/api/v1/documents/…): files told apart by their content, sizes checked while they stream,
 * image metadata removed, safe download headers, what goes with a record and what stays, and
 * the refusals across patients and organisations — always checking the storage and the
 * `documents` table, so that "refused" also means "nothing kept".
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
const patients: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const hb = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'documents-other' });
  people.alice = await buildUser(t.app, { org: hb, dob: '1980-06-15' });
  people.bob = await buildUser(t.app, { org: hb, dob: '1975-01-01' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) {
    tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    patients[name] = (await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
  }
});
afterAll(async () => {
  await t?.close();
});

// --- Requests ---------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...(who ? bearer(tokens[who]!) : {}), 'accept-language': 'en' }, ...(payload ? { payload } : {}) });


const post = (who: string | null, url: string, parts: Part[]) => {
  const { payload, contentType } = multipartBody(parts);
  return t.app.inject({ method: 'POST', url, payload, headers: { ...(who ? bearer(tokens[who]!) : {}), 'content-type': contentType, 'accept-language': 'en' } });
};

interface FileSpec {
  data: Buffer;
  filename?: string;
  contentType?: string;
}
const filePart = (file: FileSpec): Part => ({ name: 'file', filename: file.filename ?? 'file.bin', contentType: file.contentType ?? 'application/octet-stream', data: file.data });

/** POST /api/v1/hr/{id}/attachment/ with the spec's fields (content_type = category, content_object_id = the record's id). */
const attach = (who: string, record: { id: number; record_type: string }, file: FileSpec, opts: { contentType?: string; objectId?: string; query?: string } = {}) =>
  post(who, `/api/v1/hr/${record.id}/attachment/${opts.query ?? ''}`, [
    { name: 'content_type', value: opts.contentType ?? record.record_type },
    { name: 'content_object_id', value: opts.objectId ?? String(record.id) },
    filePart(file),
  ]);

/** POST /api/v1/documents/ (the Document Center), optionally into a folder. */
const uploadDocument = (who: string, file: FileSpec, folder?: number | string, query = '') =>
  post(who, `/api/v1/documents/${query}`, [...(folder === undefined ? [] : [{ name: 'folder', value: String(folder) }]), filePart(file)]);

const createRecord = async (who: string, category: string, body: Record<string, unknown>): Promise<HealthRecord> => {
  const res = await call(who, 'POST', `/api/v1/hr/${category}/`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<HealthRecord>();
};

// --- Files and storage ------------------------------------------------------------------

const PDF = onePagePdf({ title: 'Full blood count', lines: ['Haemoglobin 13.5 g/dL'] });
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>\n');
/** The start of a Windows executable (DOS header "MZ", "This program cannot be run in DOS mode"). */
const EXE = Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]), Buffer.from('This program cannot be run in DOS mode.\r\n'), randomBytes(256)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>\n');

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'files');

/** Every file under the storage's documents folder (relative paths), temporary ones included. */
async function storedFiles(): Promise<string[]> {
  const root = path.join(t.config.dataDir, 'files', 'documents');
  const entries = await readdir(root, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const files: string[] = [];
  for (const entry of entries) if ((await stat(path.join(root, entry))).isFile()) files.push(entry);
  return files.sort();
}
const fileExists = (key: string) =>
  stat(path.join(t.config.dataDir, 'files', key)).then(
    () => true,
    () => false,
  );
const documentRows = async () => Number((await t.db.selectFrom('documents').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
const documentRow = (id: number) => t.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();

/** Runs `fn` and asserts that neither a file nor a `documents` row was left behind. */
async function keepsNothing(fn: () => Promise<void>): Promise<void> {
  const [files, rows] = [await storedFiles(), await documentRows()];
  await fn();
  expect(await storedFiles()).toEqual(files);
  expect(await documentRows()).toBe(rows);
}

/** The JPEG marker segments before the image data (SOS), as marker bytes (0xE1 = APP1, 0xFE = COM, …). */
function jpegSegments(data: Buffer): number[] {
  const markers: number[] = [];
  let at = 2;
  while (at + 4 <= data.length && data[at] === 0xff) {
    const marker = data[at + 1]!;
    markers.push(marker);
    if (marker === 0xda) break;
    at += 2 + data.readUInt16BE(at + 2);
  }
  return markers;
}

/** The tags of IFD0 of every Exif APP1 segment of a JPEG (before its scan). */
function exifTags(data: Buffer): number[][] {
  const found: number[][] = [];
  let at = 2;
  while (at + 4 <= data.length && data[at] === 0xff && data[at + 1] !== 0xda) {
    const length = data.readUInt16BE(at + 2);
    const payload = data.subarray(at + 4, at + 2 + length);
    if (data[at + 1] === 0xe1 && payload.subarray(0, 6).equals(Buffer.from('Exif\0\0', 'latin1'))) {
      const tiff = payload.subarray(6);
      const le = tiff.toString('latin1', 0, 2) === 'II';
      const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
      const ifd = le ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
      const tags: number[] = [];
      for (let i = 0; i < u16(ifd); i++) tags.push(u16(ifd + 2 + i * 12));
      found.push(tags);
    }
    at += 2 + length;
  }
  return found;
}

const auditCount = async (filter: { action: string; outcome?: string; subject?: string; actor?: number }) => {
  let query = t.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<string>().as('n')).where('action', '=', filter.action);
  if (filter.outcome) query = query.where('outcome', '=', filter.outcome as 'denied');
  if (filter.subject) query = query.where('subject', '=', filter.subject);
  if (filter.actor !== undefined) query = query.where('actor_user_id', '=', filter.actor);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

// --- Attachments --------------------------------------------------------------------------

describe('attaching a file to a record', () => {
  it('answers 201 with the spec’s attachment; the record lists it; the file downloads with its sniffed type, a disposition, nosniff and a sandbox policy', async () => {
    const record = await createRecord('alice', 'condition', { name: 'Asthma' });
    const before = await storedFiles();

    const res = await attach('alice', record, { data: PNG_1X1, filename: 'scan.png', contentType: 'image/png' });
    expect(res.statusCode, res.body).toBe(201);
    const attachment = res.json<Attachment>();
    expect(Object.keys(attachment).sort()).toEqual(['content_type', 'created_at', 'file_name', 'id', 'size', 'url']);
    expect(attachment).toMatchObject({ file_name: 'scan.png', content_type: 'image/png', url: `/api/v1/documents/${attachment.id}/file/` });
    expect(attachment.size).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(attachment.created_at))).toBe(false);
    expect(await storedFiles()).toHaveLength(before.length + 1);

    // The record shows it, read alone and in its category's list.
    const read = (await call('alice', 'GET', `/api/v1/hr/condition/${record.id}/`)).json<HealthRecord>();
    expect(read.attachments).toEqual([attachment]);
    const list = (await call('alice', 'GET', '/api/v1/hr/condition/')).json<RecordPage>();
    expect(list.results.find((r) => r.id === record.id)!.attachments).toEqual([attachment]);

    // The Document Center knows it as an attachment of that record.
    const doc = (await call('alice', 'GET', `/api/v1/documents/${attachment.id}/`)).json<DocumentDto>();
    expect(doc).toMatchObject({ id: attachment.id, origin: 'attachment', folder: null, record: { id: record.id, record_type: 'condition', title: 'Asthma' } });

    const file = await call('alice', 'GET', attachment.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="scan\.png"/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(String(file.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(\s*;|$)/);
    expect(file.rawPayload.subarray(0, 8)).toEqual(PNG_1X1.subarray(0, 8));
    expect(file.rawPayload.length).toBe(attachment.size);

    const download = await call('alice', 'GET', `${attachment.url}?download=1`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="scan\.png"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.rawPayload).toEqual(file.rawPayload);
  });

  it('decides the type by the bytes: a PDF declared as octet-stream, a PNG named notes.txt — each stored and served as what it is', async () => {
    const record = await createRecord('alice', 'lab', { test: 'Haemoglobin', result: 13.5, units: 'g/dL' });
    const pdf = await attach('alice', record, { data: PDF, filename: 'Blood test.PDF', contentType: 'application/octet-stream' });
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect(pdf.json<Attachment>()).toMatchObject({ file_name: 'Blood test.pdf', content_type: 'application/pdf', size: PDF.length });
    const pdfFile = await call('alice', 'GET', pdf.json<Attachment>().url);
    expect(pdfFile.headers['content-type']).toBe('application/pdf');
    expect(pdfFile.rawPayload).toEqual(PDF);

    const png = await attach('alice', record, { data: PNG_1X1, filename: 'notes.txt', contentType: 'text/plain' });
    expect(png.statusCode, png.body).toBe(201);
    expect(png.json<Attachment>()).toMatchObject({ file_name: 'notes.png', content_type: 'image/png' });
    expect((await call('alice', 'GET', png.json<Attachment>().url)).headers['content-type']).toBe('image/png');

    const read = (await call('alice', 'GET', `/api/v1/hr/lab/${record.id}/`)).json<HealthRecord>();
    expect(read.attachments.map((a) => a.id)).toEqual([pdf.json<Attachment>().id, png.json<Attachment>().id]);

    // The rest of the allow list, each whatever it is called and declared as.
    for (const [fixture, type, extension] of [
      ['photo-metadata.gif', 'image/gif', 'gif'],
      ['photo-metadata.webp', 'image/webp', 'webp'],
      ['photo-metadata.heic', 'image/heic', 'heic'],
    ] as const) {
      const data = await readFile(path.join(FIXTURES, fixture));
      const res = await attach('alice', record, { data, filename: 'picture.jpg', contentType: 'image/jpeg' });
      expect(res.statusCode, `${fixture}: ${res.body}`).toBe(201);
      expect(res.json<Attachment>()).toMatchObject({ content_type: type, file_name: `picture.${extension}` });
      expect((await call('alice', 'GET', res.json<Attachment>().url)).headers['content-type']).toBe(type);
    }
  });

  it('keeps only the last segment of a file name, and offers a non-ASCII name both ways in Content-Disposition', async () => {
    const record = await createRecord('alice', 'lab', { test: 'Glucose', result: 5.1, units: 'mmol/L' });
    const traversal = await attach('alice', record, { data: PDF, filename: '../../etc/passwd.pdf' });
    expect(traversal.statusCode, traversal.body).toBe(201);
    expect(traversal.json<Attachment>().file_name).toBe('passwd.pdf');

    const greek = await attach('alice', record, { data: PDF, filename: 'Εξέταση αίματος.pdf' });
    expect(greek.statusCode, greek.body).toBe(201);
    const name = greek.json<Attachment>().file_name;
    expect(name).toBe('Εξέταση αίματος.pdf');
    const file = await call('alice', 'GET', `${greek.json<Attachment>().url}?download=1`);
    expect(file.statusCode).toBe(200);
    const disposition = String(file.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.pdf"; filename\*=UTF-8''/);
    expect(disposition.match(/^attachment; filename="([^"]*)"/)![1]).not.toMatch(/["\\]/);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!)).toBe(name);
  });

  it('removes a photo’s metadata (EXIF with GPS and camera, XMP, IPTC, comment; the orientation alone stays): the JPEG still starts with FF D8 and ends with FF D9', async () => {
    const original = await readFile(path.join(FIXTURES, 'photo-metadata.jpg'));
    const markers = ['HealthBookTestCam', 'Dr Private Person', 'private comment', 'SecretCity', 'http://ns.adobe.com/xap'];
    // The fixture really carries them: Make (0x010f), Model (0x0110), Orientation (0x0112) and a GPS IFD (0x8825) in its Exif.
    for (const marker of markers) expect(original.includes(Buffer.from(marker, 'latin1')), marker).toBe(true);
    const originalTags = exifTags(original);
    expect(originalTags).toHaveLength(1);
    expect(originalTags[0]).toEqual(expect.arrayContaining([0x010f, 0x0110, 0x0112, 0x8825]));
    expect(jpegSegments(original)).toEqual(expect.arrayContaining([0xe1, 0xed, 0xfe]));

    const record = await createRecord('alice', 'diagnostic', { test: 'Skin photo', result: 'Mole, left arm' });
    const res = await attach('alice', record, { data: original, filename: 'IMG_0042.JPG', contentType: 'image/jpeg' });
    expect(res.statusCode, res.body).toBe(201);
    const attachment = res.json<Attachment>();
    expect(attachment).toMatchObject({ content_type: 'image/jpeg', file_name: 'IMG_0042.jpg' });

    const file = await call('alice', 'GET', attachment.url);
    expect(file.statusCode).toBe(200);
    const bytes = file.rawPayload;
    expect(bytes.length).toBe(attachment.size);
    expect(bytes.length).toBeLessThan(original.length);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
    for (const marker of markers) expect(bytes.includes(Buffer.from(marker, 'latin1')), marker).toBe(false);
    const segments = jpegSegments(bytes);
    // Of Exif only the orientation stays (alone, in a new minimal segment: the photo must not show on its side);
    // no GPS IFD, no camera, no XMP.
    expect(exifTags(bytes)).toEqual([[0x0112]]);
    expect(segments.filter((m) => m === 0xe1)).toHaveLength(1);
    expect(segments).not.toContain(0xed); // APP13: IPTC
    expect(segments).not.toContain(0xfe); // COM
    expect(segments).toContain(0xda); // the image data is still there

    // What is stored is what is served: the original never reached the disk.
    const row = (await documentRow(attachment.id))!;
    const stored = await readFile(path.join(t.config.dataDir, 'files', row.storage_key));
    expect(stored).toEqual(bytes);
  });
});

describe('uploads that are refused keep nothing', () => {
  let record: HealthRecord;
  beforeAll(async () => {
    record = await createRecord('alice', 'condition', { name: 'Eczema' });
  });

  it('an HTML page, an executable or an SVG named photo.png and declared image/png: 400 on file', async () => {
    for (const data of [HTML, EXE, SVG]) {
      await keepsNothing(async () => {
        const res = await attach('alice', record, { data, filename: 'photo.png', contentType: 'image/png' });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ file: ['This kind of file cannot be uploaded: choose a PDF, PNG, JPEG, GIF, WebP or HEIC file.'] });
      });
    }
    // Nor through the Document Center.
    await keepsNothing(async () => {
      const res = await uploadDocument('alice', { data: HTML, filename: 'report.pdf', contentType: 'application/pdf' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toHaveProperty('file');
    });
    expect((await call('alice', 'GET', `/api/v1/hr/condition/${record.id}/`)).json<HealthRecord>().attachments).toEqual([]);
  });

  it('an empty file, or no file at all: 400 on file', async () => {
    await keepsNothing(async () => {
      const res = await attach('alice', record, { data: Buffer.alloc(0), filename: 'empty.pdf', contentType: 'application/pdf' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ file: ['The file is empty.'] });
    });
    await keepsNothing(async () => {
      const res = await post('alice', `/api/v1/hr/${record.id}/attachment/`, [
        { name: 'content_type', value: 'condition' },
        { name: 'content_object_id', value: String(record.id) },
      ]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ file: ['Choose a file to upload.'] });
    });
    await keepsNothing(async () => {
      const res = await call('alice', 'POST', `/api/v1/hr/${record.id}/attachment/`, { content_type: 'condition' });
      expect(res.statusCode, res.body).toBe(400);
    });
  });

  it('exactly 20 MB is accepted; one byte more is 413', async () => {
    const limit = 20 * 1024 * 1024;
    const atLimit = Buffer.alloc(limit, 0x20);
    PDF.copy(atLimit, 0);
    const accepted = await uploadDocument('alice', { data: atLimit, filename: 'scan.pdf' });
    expect(accepted.statusCode, accepted.body.slice(0, 200)).toBe(201);
    expect(accepted.json<DocumentDto>().size).toBe(limit);
    expect((await call('alice', 'DELETE', `/api/v1/documents/${accepted.json<DocumentDto>().id}/`)).statusCode).toBe(204);
    await keepsNothing(async () => {
      const res = await attach('alice', record, { data: Buffer.concat([atLimit, Buffer.from(' ')]), filename: 'scan.pdf' });
      expect(res.statusCode, res.body).toBe(413);
    });
  });

  it('a 21 MB file (a real PNG header, so only its size is wrong): 413 on file, nothing written', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024, 0x41);
    PNG_1X1.copy(big, 0, 0, 33);
    await keepsNothing(async () => {
      const res = await attach('alice', record, { data: big, filename: 'huge.png', contentType: 'image/png' });
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toEqual({ file: ['The file must be 20 MB or smaller.'] });
    });
    await keepsNothing(async () => {
      const res = await uploadDocument('alice', { data: big, filename: 'huge.png', contentType: 'image/png' });
      expect(res.statusCode, res.body).toBe(413);
    });
  });

  it('content_object_id that is not the record of the address: 400 on content_object_id', async () => {
    await keepsNothing(async () => {
      const res = await attach('alice', record, { data: PNG_1X1 }, { objectId: String(record.id + 1000) });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ content_object_id: ['This does not match the record in the address.'] });
    });
  });

  it('content_type naming another category: 404 (the record is not one of that category); an unknown one: 400 on content_type', async () => {
    await keepsNothing(async () => {
      const res = await attach('alice', record, { data: PNG_1X1 }, { contentType: 'allergy' });
      expect(res.statusCode, res.body).toBe(404);
    });
    await keepsNothing(async () => {
      const res = await attach('alice', record, { data: PNG_1X1 }, { contentType: 'horoscope' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ content_type: ['"horoscope" is not a valid choice.'] });
    });
    for (const name of ['constructor', '__proto__', 'CONDITION']) {
      await keepsNothing(async () => {
        const res = await attach('alice', record, { data: PNG_1X1 }, { contentType: name });
        expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
        expect(res.json()).toHaveProperty('content_type');
      });
    }
  });

  it('a record that is not there: 404', async () => {
    await keepsNothing(async () => {
      const res = await attach('alice', { id: 99_999_999, record_type: 'condition' }, { data: PNG_1X1 });
      expect(res.statusCode, res.body).toBe(404);
    });
  });

  it('another patient’s record id: 404, whether or not ?patient= names that patient; the refusal by patient is audited', async () => {
    const subject = `patient:${patients.alice}`;
    const denied = await auditCount({ action: 'patient_access', outcome: 'denied', subject, actor: people.bob!.id });
    await keepsNothing(async () => {
      expect((await attach('bob', record, { data: PNG_1X1 })).statusCode).toBe(404);
      expect((await attach('bob', record, { data: PNG_1X1 }, { query: `?patient=${patients.alice}` })).statusCode).toBe(404);
      expect((await attach('stranger', record, { data: PNG_1X1 })).statusCode).toBe(404);
    });
    expect(await auditCount({ action: 'patient_access', outcome: 'denied', subject, actor: people.bob!.id })).toBe(denied + 1);
    expect((await call('alice', 'GET', `/api/v1/hr/condition/${record.id}/`)).json<HealthRecord>().attachments).toEqual([]);
  });
});

// --- Whose files ------------------------------------------------------------------------

describe('another patient and another organisation', () => {
  it('get 404 on every route — attach, delete, download, list, read, patch, delete, folders — and change nothing; each refusal by patient is audited', async () => {
    const record = await createRecord('alice', 'medication', { code: 'Salbutamol' });
    const attachment = (await attach('alice', record, { data: PDF, filename: 'prescription.pdf' })).json<Attachment>();
    const folder = (await call('alice', 'POST', '/api/v1/documents/folders/', { name: 'Prescriptions' })).json<FolderDto>();
    const doc = (await uploadDocument('alice', { data: PNG_1X1, filename: 'insurance-card.png' }, folder.id)).json<DocumentDto>();
    expect(doc.folder).toBe(folder.id);
    const subject = `patient:${patients.alice}`;

    for (const who of ['bob', 'stranger']) {
      const deniedBefore = await auditCount({ action: 'patient_access', outcome: 'denied', subject, actor: people[who]!.id });
      let byPatient = 0;
      const expect404 = async (res: Promise<{ statusCode: number; body: string }>, label: string, naming: boolean) => {
        const answer = await res;
        expect(answer.statusCode, `${who}: ${label} ${answer.body}`).toBe(404);
        if (naming) byPatient += 1;
      };
      await keepsNothing(async () => {
        for (const q of ['', `?patient=${patients.alice}`]) {
          const naming = q !== '';
          const qs = naming ? `&patient=${patients.alice}` : '';
          await expect404(attach(who, record, { data: PNG_1X1 }, { query: q }), 'attach', naming);
          await expect404(call(who, 'DELETE', `/api/v1/hr/attachment/${attachment.id}${q}`), 'delete attachment', naming);
          await expect404(call(who, 'GET', `${attachment.url}${q}`), 'download attachment', naming);
          await expect404(call(who, 'GET', `${attachment.url}?download=1${qs}`), 'download attachment (attachment disposition)', naming);
          await expect404(call(who, 'GET', `/api/v1/documents/${doc.id}/file/${q}`), 'download document', naming);
          await expect404(call(who, 'GET', `/api/v1/documents/${attachment.id}/${q}`), 'read attachment', naming);
          await expect404(call(who, 'GET', `/api/v1/documents/${doc.id}/${q}`), 'read document', naming);
          await expect404(call(who, 'PATCH', `/api/v1/documents/${doc.id}/${q}`, { file_name: 'mine.png' }), 'rename document', naming);
          await expect404(call(who, 'PATCH', `/api/v1/documents/${attachment.id}/${q}`, { record: null }), 'detach attachment', naming);
          await expect404(call(who, 'PATCH', `/api/v1/documents/${doc.id}/${q}`, { folder: null }), 'move document', naming);
          await expect404(call(who, 'DELETE', `/api/v1/documents/${doc.id}/${q}`), 'delete document', naming);
          await expect404(call(who, 'DELETE', `/api/v1/documents/${attachment.id}/${q}`), 'delete attachment as a document', naming);
          await expect404(call(who, 'PATCH', `/api/v1/documents/folders/${folder.id}/${q}`, { name: 'Taken over' }), 'rename folder', naming);
          await expect404(call(who, 'DELETE', `/api/v1/documents/folders/${folder.id}/${q}`), 'delete folder', naming);
          await expect404(call(who, 'GET', `/api/v1/hr/medication/${record.id}/${q}`), 'read record', naming);
        }
        await expect404(call(who, 'GET', `/api/v1/documents/?patient=${patients.alice}`), 'list', true);
        await expect404(call(who, 'GET', `/api/v1/documents/?attached=true&patient=${patients.alice}`), 'list attached', true);
        await expect404(call(who, 'GET', `/api/v1/documents/?folder=${folder.id}&patient=${patients.alice}`), 'list folder', true);
        await expect404(call(who, 'GET', `/api/v1/documents/folders/?patient=${patients.alice}`), 'list folders', true);
        await expect404(call(who, 'POST', `/api/v1/documents/folders/?patient=${patients.alice}`, { name: 'Planted' }), 'create folder', true);
        await expect404(uploadDocument(who, { data: PNG_1X1 }, undefined, `?patient=${patients.alice}`), 'upload document', true);
        // Their own lists hold nothing of alice's; a folder id of hers is no folder of theirs.
        const own = await call(who, 'GET', '/api/v1/documents/');
        expect(own.statusCode).toBe(200);
        expect(own.json<DocumentDto[]>().map((d) => d.id)).not.toEqual(expect.arrayContaining([doc.id]));
        expect(own.json<DocumentDto[]>().map((d) => d.id)).not.toEqual(expect.arrayContaining([attachment.id]));
        expect((await call(who, 'GET', `/api/v1/documents/?folder=${folder.id}`)).json<DocumentDto[]>()).toEqual([]);
        expect((await call(who, 'GET', '/api/v1/documents/folders/')).json<FolderDto[]>().map((f) => f.id)).not.toContain(folder.id);
        const planted = await uploadDocument(who, { data: PNG_1X1 }, folder.id);
        expect(planted.statusCode, planted.body).toBe(400);
        expect(planted.json()).toHaveProperty('folder');
      });
      // Alice's record can neither be attached to by their documents.
      const theirs = (await uploadDocument(who, { data: PNG_1X1, filename: 'theirs.png' })).json<DocumentDto>();
      const hijack = await call(who, 'PATCH', `/api/v1/documents/${theirs.id}/`, { record: record.id });
      expect(hijack.statusCode, hijack.body).toBe(400);
      expect(hijack.json()).toHaveProperty('record');
      expect((await call(who, 'DELETE', `/api/v1/documents/${theirs.id}/`)).statusCode).toBe(204);

      expect(await auditCount({ action: 'patient_access', outcome: 'denied', subject, actor: people[who]!.id }), who).toBe(deniedBefore + byPatient);
    }

    // Alice's files are all there, unchanged.
    expect((await call('alice', 'GET', `/api/v1/hr/medication/${record.id}/`)).json<HealthRecord>().attachments).toEqual([attachment]);
    expect((await call('alice', 'GET', attachment.url)).rawPayload).toEqual(PDF);
    expect((await call('alice', 'GET', `/api/v1/documents/${doc.id}/`)).json<DocumentDto>()).toEqual(doc);
    expect((await call('alice', 'GET', '/api/v1/documents/folders/')).json<FolderDto[]>().find((f) => f.id === folder.id)).toMatchObject({ name: 'Prescriptions', documents: 1 });
  });

  it('the owner’s reads are not audited (only reads by someone else are)', async () => {
    const record = await createRecord('alice', 'immunization', { vaccine_name: 'Tetanus' });
    const attachment = (await attach('alice', record, { data: PNG_1X1 })).json<Attachment>();
    const reads = await auditCount({ action: 'document_read' });
    const recordReads = await auditCount({ action: 'record_read' });
    expect((await call('alice', 'GET', '/api/v1/documents/')).statusCode).toBe(200);
    expect((await call('alice', 'GET', `/api/v1/documents/?patient=${patients.alice}`)).statusCode).toBe(200);
    expect((await call('alice', 'GET', `/api/v1/documents/${attachment.id}/`)).statusCode).toBe(200);
    expect((await call('alice', 'GET', attachment.url)).statusCode).toBe(200);
    expect((await call('alice', 'GET', `${attachment.url}?download=1&patient=${patients.alice}`)).statusCode).toBe(200);
    expect((await call('alice', 'GET', `/api/v1/hr/immunization/${record.id}/`)).statusCode).toBe(200);
    expect(await auditCount({ action: 'document_read' })).toBe(reads);
    expect(await auditCount({ action: 'record_read' })).toBe(recordReads);
  });
});

describe('private ("for my eyes only") records', () => {
  it('their attachments are the owner’s alone: downloadable by her, 404 to anyone else', async () => {
    const record = await createRecord('alice', 'condition', { name: 'Depression', private: true });
    const res = await attach('alice', record, { data: PDF, filename: 'psychiatry.pdf' });
    expect(res.statusCode, res.body).toBe(201);
    const attachment = res.json<Attachment>();

    expect((await call('alice', 'GET', attachment.url)).rawPayload).toEqual(PDF);
    expect((await call('alice', 'GET', `/api/v1/hr/condition/${record.id}/`)).json<HealthRecord>().attachments).toEqual([attachment]);
    const attached = (await call('alice', 'GET', '/api/v1/documents/?attached=true')).json<DocumentDto[]>();
    expect(attached.find((d) => d.id === attachment.id)).toMatchObject({ record: { id: record.id, record_type: 'condition' } });

    for (const who of ['bob', 'stranger']) {
      for (const q of ['', `?patient=${patients.alice}`]) {
        expect((await call(who, 'GET', `${attachment.url}${q}`)).statusCode, who).toBe(404);
        expect((await call(who, 'GET', `/api/v1/documents/${attachment.id}/${q}`)).statusCode, who).toBe(404);
        expect((await call(who, 'GET', `/api/v1/hr/condition/${record.id}/${q}`)).statusCode, who).toBe(404);
      }
      expect((await call(who, 'GET', '/api/v1/documents/?attached=true')).json<DocumentDto[]>().map((d) => d.id)).not.toContain(attachment.id);
    }
  });
});

// --- What goes and what stays ---------------------------------------------------------------

describe('deleting', () => {
  it('a record deletes the attachments uploaded to it, rows and files; a Document Center document attached to it stays, detached', async () => {
    const record = await createRecord('alice', 'surgery', { procedure: 'Appendectomy' });
    const uploaded = (await attach('alice', record, { data: PDF, filename: 'discharge.pdf' })).json<Attachment>();
    const doc = (await uploadDocument('alice', { data: PNG_1X1, filename: 'scar.png' })).json<DocumentDto>();
    const linked = await call('alice', 'PATCH', `/api/v1/documents/${doc.id}/`, { record: record.id });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json<DocumentDto>()).toMatchObject({ origin: 'document', record: { id: record.id, record_type: 'surgery', title: 'Appendectomy' } });
    expect((await call('alice', 'GET', `/api/v1/hr/surgery/${record.id}/`)).json<HealthRecord>().attachments.map((a) => a.id)).toEqual([uploaded.id, doc.id]);

    const uploadedKey = (await documentRow(uploaded.id))!.storage_key;
    const docKey = (await documentRow(doc.id))!.storage_key;
    expect(await fileExists(uploadedKey)).toBe(true);

    expect((await call('alice', 'DELETE', `/api/v1/hr/surgery/${record.id}/`)).statusCode).toBe(204);
    expect((await call('alice', 'GET', `/api/v1/hr/surgery/${record.id}/`)).statusCode).toBe(404);

    expect(await documentRow(uploaded.id)).toBeUndefined();
    expect(await fileExists(uploadedKey)).toBe(false);
    expect((await call('alice', 'GET', uploaded.url)).statusCode).toBe(404);
    expect((await call('alice', 'GET', `/api/v1/documents/${uploaded.id}/`)).statusCode).toBe(404);

    const kept = await call('alice', 'GET', `/api/v1/documents/${doc.id}/`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json<DocumentDto>()).toMatchObject({ id: doc.id, origin: 'document', record: null });
    expect(await fileExists(docKey)).toBe(true);
    expect((await call('alice', 'GET', doc.url)).rawPayload.subarray(0, 8)).toEqual(PNG_1X1.subarray(0, 8));
  });

  it('DELETE /api/v1/hr/attachment/{id}: an uploaded attachment goes with its file; a Document Center document is only detached', async () => {
    const record = await createRecord('alice', 'procedure', { procedure: 'Colonoscopy' });
    const uploaded = (await attach('alice', record, { data: PDF, filename: 'report.pdf' })).json<Attachment>();
    const doc = (await uploadDocument('alice', { data: PDF, filename: 'referral.pdf' })).json<DocumentDto>();
    expect((await call('alice', 'PATCH', `/api/v1/documents/${doc.id}/`, { record: record.id })).statusCode).toBe(200);
    const uploadedKey = (await documentRow(uploaded.id))!.storage_key;
    const docKey = (await documentRow(doc.id))!.storage_key;

    expect((await call('alice', 'DELETE', `/api/v1/hr/attachment/${uploaded.id}`)).statusCode).toBe(204);
    expect(await documentRow(uploaded.id)).toBeUndefined();
    expect(await fileExists(uploadedKey)).toBe(false);
    expect((await call('alice', 'GET', uploaded.url)).statusCode).toBe(404);

    expect((await call('alice', 'DELETE', `/api/v1/hr/attachment/${doc.id}`)).statusCode).toBe(204);
    expect((await call('alice', 'GET', `/api/v1/documents/${doc.id}/`)).json<DocumentDto>()).toMatchObject({ id: doc.id, record: null, origin: 'document' });
    expect(await fileExists(docKey)).toBe(true);
    expect((await call('alice', 'GET', doc.url)).rawPayload).toEqual(PDF);

    expect((await call('alice', 'GET', `/api/v1/hr/procedure/${record.id}/`)).json<HealthRecord>().attachments).toEqual([]);
    // Neither is an attachment any more.
    expect((await call('alice', 'DELETE', `/api/v1/hr/attachment/${uploaded.id}`)).statusCode).toBe(404);
    expect((await call('alice', 'DELETE', `/api/v1/hr/attachment/${doc.id}`)).statusCode).toBe(404);
  });

  it('PATCH record:null detaches; DELETE /api/v1/documents/{id}/ deletes the row and the file', async () => {
    const record = await createRecord('alice', 'allergy', { code: 'Penicillin' });
    const doc = (await uploadDocument('alice', { data: PNG_1X1, filename: 'allergy-card.png' })).json<DocumentDto>();
    expect((await call('alice', 'PATCH', `/api/v1/documents/${doc.id}/`, { record: record.id })).json<DocumentDto>().record).toMatchObject({ id: record.id });
    const detached = await call('alice', 'PATCH', `/api/v1/documents/${doc.id}/`, { record: null });
    expect(detached.statusCode, detached.body).toBe(200);
    expect(detached.json<DocumentDto>().record).toBeNull();
    expect((await call('alice', 'GET', `/api/v1/hr/allergy/${record.id}/`)).json<HealthRecord>().attachments).toEqual([]);

    const key = (await documentRow(doc.id))!.storage_key;
    expect((await call('alice', 'DELETE', `/api/v1/documents/${doc.id}/`)).statusCode).toBe(204);
    expect(await documentRow(doc.id)).toBeUndefined();
    expect(await fileExists(key)).toBe(false);
    expect((await call('alice', 'DELETE', `/api/v1/documents/${doc.id}/`)).statusCode).toBe(404);
  });
});

// --- The Document Center ---------------------------------------------------------------------

describe('the Document Center', () => {
  it('uploads into a folder or none; lists by folder, attached and search; renames keeping the real extension; refuses unknown folders and records', async () => {
    const folder = (await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'Scans' })).json<FolderDto>();
    const inFolder = await uploadDocument('bob', { data: PDF, filename: 'MRI knee.pdf' }, folder.id);
    expect(inFolder.statusCode, inFolder.body).toBe(201);
    const mri = inFolder.json<DocumentDto>();
    expect(mri).toMatchObject({ file_name: 'MRI knee.pdf', content_type: 'application/pdf', size: PDF.length, folder: folder.id, origin: 'document', record: null, url: `/api/v1/documents/${mri.id}/file/` });
    const loose = (await uploadDocument('bob', { data: PNG_1X1, filename: '100%_done.png' }, 'none')).json<DocumentDto>();
    expect(loose.folder).toBeNull();
    const record = await createRecord('bob', 'medicalvisit', { reason: 'Knee pain' });
    const attached = (await attach('bob', record, { data: PDF, filename: 'visit-notes.pdf' })).json<Attachment>();

    const ids = async (query: string) => (await call('bob', 'GET', `/api/v1/documents/${query}`)).json<DocumentDto[]>().map((d) => d.id);
    expect(await ids('')).toEqual([attached.id, loose.id, mri.id]); // newest first
    expect(await ids(`?folder=${folder.id}`)).toEqual([mri.id]);
    expect(await ids('?folder=none')).toEqual([attached.id, loose.id]);
    expect(await ids('?attached=true')).toEqual([attached.id]);
    expect(await ids('?search=mri')).toEqual([mri.id]);
    expect(await ids(`?search=${encodeURIComponent('%')}`)).toEqual([loose.id]);
    expect(await ids('?search=nothing-like-this')).toEqual([]);
    expect((await call('bob', 'GET', '/api/v1/documents/?folder=abc')).statusCode).toBe(400);

    const got = (await call('bob', 'GET', `/api/v1/documents/${mri.id}/`)).json<DocumentDto>();
    expect(got).toEqual(mri);

    const renamed = await call('bob', 'PATCH', `/api/v1/documents/${mri.id}/`, { file_name: 'Knee MRI 2024.exe' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<DocumentDto>().file_name).toBe('Knee MRI 2024.pdf');
    const served = await call('bob', 'GET', `${mri.url}?download=1`);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toMatch(/^attachment; filename="Knee MRI 2024\.pdf"/);

    expect((await call('bob', 'PATCH', `/api/v1/documents/${mri.id}/`, { folder: 99_999_999 })).json()).toHaveProperty('folder');
    expect((await call('bob', 'PATCH', `/api/v1/documents/${mri.id}/`, { record: 99_999_999 })).json()).toHaveProperty('record');
    await keepsNothing(async () => {
      const res = await uploadDocument('bob', { data: PDF }, 99_999_999);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toHaveProperty('folder');
    });
    expect((await call('bob', 'GET', `/api/v1/documents/${mri.id}/`)).json<DocumentDto>()).toMatchObject({ folder: folder.id, record: null });
  });

  it('folders: created, unique whatever their case (400 on name), renamed, not deleted while they hold documents (409), deleted when empty (204)', async () => {
    const created = await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'Lab results' });
    expect(created.statusCode, created.body).toBe(201);
    const labs = created.json<FolderDto>();
    expect(labs).toMatchObject({ name: 'Lab results', documents: 0 });

    const duplicate = await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'LAB RESULTS' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toEqual({ name: ['You already have a folder with this name.'] });
    expect((await call('bob', 'POST', '/api/v1/documents/folders/', { name: '  ' })).json()).toEqual({ name: ['Enter a name for the folder.'] });
    // Another patient may use the same name.
    expect((await call('alice', 'POST', '/api/v1/documents/folders/', { name: 'Lab results' })).statusCode).toBe(201);

    const renamed = await call('bob', 'PATCH', `/api/v1/documents/folders/${labs.id}/`, { name: 'Blood tests' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<FolderDto>()).toMatchObject({ id: labs.id, name: 'Blood tests' });
    // Its own name in another case is fine; another folder's is not.
    expect((await call('bob', 'PATCH', `/api/v1/documents/folders/${labs.id}/`, { name: 'BLOOD TESTS' })).statusCode).toBe(200);
    const other = (await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'Imaging' })).json<FolderDto>();
    const clash = await call('bob', 'PATCH', `/api/v1/documents/folders/${other.id}/`, { name: 'blood tests' });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toEqual({ name: ['You already have a folder with this name.'] });

    const doc = (await uploadDocument('bob', { data: PDF, filename: 'cbc.pdf' }, labs.id)).json<DocumentDto>();
    expect((await call('bob', 'GET', '/api/v1/documents/folders/')).json<FolderDto[]>().find((f) => f.id === labs.id)).toMatchObject({ name: 'BLOOD TESTS', documents: 1 });
    const full = await call('bob', 'DELETE', `/api/v1/documents/folders/${labs.id}/`);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ detail: 'This folder still holds documents: move or delete them first.' });

    const moved = await call('bob', 'PATCH', `/api/v1/documents/${doc.id}/`, { folder: null });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<DocumentDto>().folder).toBeNull();
    expect((await call('bob', 'DELETE', `/api/v1/documents/folders/${labs.id}/`)).statusCode).toBe(204);
    expect((await call('bob', 'GET', '/api/v1/documents/folders/')).json<FolderDto[]>().map((f) => f.id)).not.toContain(labs.id);
    expect((await call('bob', 'DELETE', `/api/v1/documents/folders/${labs.id}/`)).statusCode).toBe(404);
    expect((await call('bob', 'PATCH', `/api/v1/documents/folders/${labs.id}/`, { name: 'Back' })).statusCode).toBe(404);
    // The document itself is untouched.
    expect((await call('bob', 'GET', `/api/v1/documents/${doc.id}/`)).json<DocumentDto>()).toMatchObject({ id: doc.id, folder: null });
  });

  it('folder names are unique whatever their case in Greek too (ΕΞΕΤΑΣΕΙΣ / Εξετάσεις)', async () => {
    const first = await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'ΑΙΜΑ' });
    expect(first.statusCode, first.body).toBe(201);
    expect((await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'αιμα' })).statusCode).toBe(400);
  });

  // Greek lower-cases a capital Σ to σ, but a word's final σ is written ς: both are one letter to a patient.
  it('a Greek name ending in a capital sigma is a duplicate of the same name in lower case', async () => {
    const first = await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'ΕΞΕΤΆΣΕΙΣ' });
    expect(first.statusCode, first.body).toBe(201);
    const second = await call('bob', 'POST', '/api/v1/documents/folders/', { name: 'Εξετάσεις' });
    expect(second.statusCode, second.body).toBe(400);
  });
});

// --- Lists answered from memory ----------------------------------------------------------------

describe('lists and the summary always answer the data as it is now', () => {
  const list = async (who: string, category: string, query = '') => {
    const res = await call(who, 'GET', `/api/v1/hr/${category}/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RecordPage>();
  };
  const countOf = async (who: string, category: string) =>
    (await call(who, 'GET', '/api/v1/hr/summary/')).json<{ categories: Array<{ category: string; count: number }> }>().categories.find((c) => c.category === category)!.count;

  it('every change through the API shows at once: create, edit, private, attach, rename, detach, delete', async () => {
    const before = await list('alice', 'surgery');
    const summaryBefore = await countOf('alice', 'surgery');
    const record = await createRecord('alice', 'surgery', { procedure: 'Appendectomy' });
    expect((await list('alice', 'surgery')).count).toBe(before.count + 1);
    expect(await countOf('alice', 'surgery')).toBe(summaryBefore + 1);

    expect((await call('alice', 'PATCH', `/api/v1/hr/surgery/${record.id}/`, { procedure: 'Laparoscopic appendectomy' })).statusCode).toBe(200);
    const find = async () => (await list('alice', 'surgery')).results.find((r) => r.id === record.id);
    expect((await find())?.procedure).toBe('Laparoscopic appendectomy');

    const attached = (await attach('alice', record, { data: PDF, filename: 'operation-notes.pdf' })).json<Attachment>();
    expect((await find())?.attachments.map((a) => a.file_name)).toEqual(['operation-notes.pdf']);
    expect((await call('alice', 'PATCH', `/api/v1/documents/${attached.id}/`, { file_name: 'surgeon notes.pdf' })).statusCode).toBe(200);
    expect((await find())?.attachments.map((a) => a.file_name)).toEqual(['surgeon notes.pdf']);
    expect((await call('alice', 'PATCH', `/api/v1/documents/${attached.id}/`, { record: null })).statusCode).toBe(200);
    expect((await find())?.attachments).toEqual([]);

    expect((await call('alice', 'PATCH', `/api/v1/hr/surgery/${record.id}/`, { private: true })).statusCode).toBe(200);
    expect((await find())?.private).toBe(true);
    expect((await call('alice', 'DELETE', `/api/v1/hr/surgery/${record.id}/`)).statusCode).toBe(204);
    expect(await find()).toBeUndefined();
    expect(await countOf('alice', 'surgery')).toBe(summaryBefore);
  });

  it('a change written by anything else (another process, an operator) shows too: the database moves the version on', async () => {
    const before = await list('alice', 'procedure', '?page_size=5');
    const org = (await t.db.selectFrom('users').select('org_id').where('id', '=', people.alice!.id).executeTakeFirstOrThrow()).org_id;
    const inserted = await t.db
      .insertInto('health_records')
      .values({ org_id: org, patient_id: patients.alice!, category: 'procedure', data: JSON.stringify({ procedure: 'Written elsewhere' }), sort_date: '2026-01-02', search_text: 'written elsewhere' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const after = await list('alice', 'procedure', '?page_size=5');
    expect(after.count).toBe(before.count + 1);
    expect(after.results.map((r) => r.procedure)).toContain('Written elsewhere');

    await t.db.updateTable('health_records').set({ data: JSON.stringify({ procedure: 'Changed elsewhere' }) }).where('id', '=', inserted.id).execute();
    expect((await list('alice', 'procedure', '?page_size=5')).results.map((r) => r.procedure)).toContain('Changed elsewhere');
    await t.db.deleteFrom('health_records').where('id', '=', inserted.id).execute();
    expect((await list('alice', 'procedure', '?page_size=5')).count).toBe(before.count);
  });

  it("one patient's change leaves another's answers alone, and is never shown to them", async () => {
    const bobs = await list('bob', 'supplement');
    await createRecord('alice', 'supplement', { code: 'Vitamin D' });
    const again = await list('bob', 'supplement');
    expect(again).toEqual(bobs);
    expect(again.results.map((r) => r.code)).not.toContain('Vitamin D');
  });
});

// --- Compression (issue 27 §6) ----------------------------------------------------------------

describe('answers are compressed for clients that accept it; files come as they are', () => {
  const get = (url: string, encoding?: string, who = 'alice') =>
    t.app.inject({ method: 'GET', url, headers: { ...bearer(tokens[who]!), 'accept-language': 'en', ...(encoding ? { 'accept-encoding': encoding } : {}) } });

  it('a JSON answer of some size comes in brotli or gzip, as asked, and reads as the plain one', async () => {
    for (let i = 0; i < 6; i++) await createRecord('alice', 'allergy', { code: `Compressed allergen ${i}`, reaction: 'Sneezing and itching after contact, every spring.' });
    const plain = await get('/api/v1/hr/allergy/');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/api/v1/hr/allergy/', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await get('/api/v1/hr/allergy/', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('a small answer is sent as it is (compressing it would cost more than it saves)', async () => {
    const res = await get('/api/v1/documents/folders/', 'gzip, br', 'stranger');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toBeInstanceOf(Array);
  });

  it('a PDF download is never re-compressed: the same bytes, whatever the client accepts', async () => {
    const doc = (await uploadDocument('alice', { data: PDF, filename: 'compressed.pdf' })).json<DocumentDto>();
    const res = await get(doc.url, 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });
});

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('two server processes on one database', () => {
  it('a change made through one is answered by the other at once, without any message between them', async () => {
    const second = await buildTestApp({ databaseUrl: t.databaseUrl! });
    try {
      const viaSecond = (url: string) => second.app.inject({ method: 'GET', url, headers: bearer(tokens.alice!) });
      const before = (await viaSecond('/api/v1/hr/travelhistory/')).json<RecordPage>();
      await createRecord('alice', 'travelhistory', { country: 'GR' });
      const after = (await viaSecond('/api/v1/hr/travelhistory/')).json<RecordPage>();
      expect(after.count).toBe(before.count + 1);
    } finally {
      await second.close();
    }
  });
});

describe('without a token', () => {
  it('every route of attachments and documents answers 401', async () => {
    const routes: Array<[Method, string]> = [
      ['DELETE', '/api/v1/hr/attachment/1'],
      ['GET', '/api/v1/documents/'],
      ['GET', '/api/v1/documents/1/'],
      ['PATCH', '/api/v1/documents/1/'],
      ['DELETE', '/api/v1/documents/1/'],
      ['GET', '/api/v1/documents/1/file/'],
      ['GET', '/api/v1/documents/folders/'],
      ['POST', '/api/v1/documents/folders/'],
      ['PATCH', '/api/v1/documents/folders/1/'],
      ['DELETE', '/api/v1/documents/folders/1/'],
    ];
    for (const [method, url] of routes) expect((await call(null, method, url, method === 'PATCH' || method === 'POST' ? { name: 'x' } : undefined)).statusCode, `${method} ${url}`).toBe(401);
    await keepsNothing(async () => {
      expect((await post(null, '/api/v1/hr/1/attachment/', [{ name: 'content_type', value: 'condition' }, filePart({ data: PNG_1X1 })])).statusCode).toBe(401);
      expect((await post(null, '/api/v1/documents/', [filePart({ data: PNG_1X1 })])).statusCode).toBe(401);
    });
  });
});
