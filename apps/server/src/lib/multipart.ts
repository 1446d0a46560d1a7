import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { FieldError, HttpError } from './http-errors';

export interface UploadedFile {
  data: Buffer;
  /** What the client declared; the bytes decide what the file really is. */
  mimetype: string;
  filename: string;
}

/**
 * Reads the one file of a multipart/form-data request (its field named `field`), whole, within
 * the limits the route's multipart plugin set. Every way a client can get multipart wrong — no
 * boundary, a truncated body, too many parts, a file too large, no file — is a 4xx with a
 * localised message, never a 500. For every upload route (avatars now, attachments later).
 */
export async function readSingleFile(request: FastifyRequest, field = 'file'): Promise<UploadedFile> {
  const required = () => new FieldError({ [field]: ['validation:imageRequired'] });
  if (!request.isMultipart()) throw required();
  const errors = request.server.multipartErrors;
  try {
    const part = await request.file();
    if (!part || part.fieldname !== field) throw required();
    const data = await part.toBuffer();
    if (data.length === 0) throw required();
    return { data, mimetype: part.mimetype, filename: part.filename };
  } catch (err) {
    if (err instanceof FieldError) throw err;
    if (err instanceof errors.RequestFileTooLargeError) throw new FieldError({ [field]: ['validation:imageTooLarge'] }, 413);
    if (err instanceof errors.FilesLimitError || err instanceof errors.PartsLimitError || err instanceof errors.FieldsLimitError) throw required();
    // Anything the parser (busboy) raised about the body itself: no boundary, malformed or truncated.
    request.log.info({ err: err instanceof Error ? err.message : String(err) }, 'unreadable multipart body');
    throw new HttpError(400, 'errors:multipartInvalid');
  }
}

export interface Upload {
  file: UploadedFile;
  /** The text fields of the form, by name (the last value of a repeated one). */
  fields: Record<string, string>;
}

/**
 * Reads a multipart/form-data request of one file (`fileField`) and a few text fields, within
 * the limits the route's multipart plugin set (the file's size is checked while it streams:
 * nothing larger is kept). The same 4xx as readSingleFile for every malformed body.
 */
export async function readUpload(request: FastifyRequest, options: { fileField?: string; maxMegabytes: number }): Promise<Upload> {
  const field = options.fileField ?? 'file';
  const required = () => new FieldError({ [field]: ['validation:fileRequired'] });
  if (!request.isMultipart()) throw required();
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== field || file) {
          await part.toBuffer(); // drained, not kept
          continue;
        }
        file = { data: await part.toBuffer(), mimetype: part.mimetype, filename: part.filename };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    throw uploadError(request, err, field, options.maxMegabytes);
  }
  if (!file) throw required();
  if (file.data.length === 0) throw new FieldError({ [field]: ['validation:fileEmpty'] });
  return { file, fields };
}

/** What a client got wrong in an upload, as the 4xx it is (the file too large: 413 naming the limit). */
function uploadError(request: FastifyRequest, err: unknown, field: string, maxMegabytes: number): Error {
  const errors = request.server.multipartErrors;
  if (err instanceof FieldError) return err;
  if (err instanceof errors.RequestFileTooLargeError) return new FieldError({ [field]: [{ key: 'validation:fileTooLarge', vars: { max: maxMegabytes } }] }, 413);
  if (err instanceof errors.FilesLimitError || err instanceof errors.PartsLimitError || err instanceof errors.FieldsLimitError) return new FieldError({ [field]: ['validation:fileRequired'] });
  // Anything the parser (busboy) raised about the body itself: no boundary, malformed or truncated.
  request.log.info({ err: err instanceof Error ? err.message : String(err) }, 'unreadable multipart body');
  return new HttpError(400, 'errors:multipartInvalid');
}

/**
 * The one file of a multipart/form-data request (its field `field`, and nothing else) streamed to
 * `path`, never held in memory, within the limits the route's multipart plugin set: for files of
 * gigabytes. The same 4xx as readUpload for every malformed body; a file that did not arrive
 * whole is removed. Answers the name and type the client gave it, and its size.
 */
export async function saveUpload(request: FastifyRequest, path: string, options: { field?: string; maxMegabytes: number }): Promise<{ filename: string; mimetype: string; bytes: number }> {
  const field = options.field ?? 'file';
  const required = () => new FieldError({ [field]: ['validation:fileRequired'] });
  if (!request.isMultipart()) throw required();
  try {
    const part = await request.file();
    if (!part || part.fieldname !== field) throw required();
    await pipeline(part.file, createWriteStream(path, { mode: 0o600 }));
    if (part.file.truncated) throw new FieldError({ [field]: [{ key: 'validation:fileTooLarge', vars: { max: options.maxMegabytes } }] }, 413);
    if (part.file.bytesRead === 0) throw new FieldError({ [field]: ['validation:fileEmpty'] });
    return { filename: part.filename, mimetype: part.mimetype, bytes: part.file.bytesRead };
  } catch (err) {
    await rm(path, { force: true });
    throw uploadError(request, err, field, options.maxMegabytes);
  }
}
