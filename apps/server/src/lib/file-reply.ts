import type { FastifyReply } from 'fastify';

/**
 * Sends a stored file (a document, a shared file, a chat file): its type as the bytes decided
 * when it was stored, its name for the browser (ASCII and UTF-8), never sniffed, never cached,
 * sandboxed if opened in a tab.
 */
export function sendStoredFile(reply: FastifyReply, file: { data: Buffer; fileName: string; contentType: string }, disposition: 'inline' | 'attachment' = 'attachment') {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .type(file.contentType)
    .header('Content-Disposition', `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .header('Cross-Origin-Resource-Policy', 'same-origin')
    .send(file.data);
}
