import { useEffect, useState } from 'react';
import { api } from './api-client';

/**
 * Files of the API (attachments, documents) are served behind the Authorization header, which
 * an <img>, an <iframe> or a link cannot send: they are fetched as blobs and shown through
 * object URLs, released when no longer shown.
 */
/** Image types a browser draws by itself (HEIC is not one of them in most browsers). */
export const DRAWN_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** `type`: the server's type for the bytes (as it sniffed them when they were stored, sent with nosniff). */
export function useFileObjectUrl(url: string | null): { objectUrl: string | null; type: string | null; error: boolean } {
  // The answer is kept with the address it is for: a new address shows nothing until its own answer.
  const [state, setState] = useState<{ url: string; objectUrl: string | null; type: string | null; error: boolean } | null>(null);
  useEffect(() => {
    if (!url) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    api.blob(url).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ url, objectUrl, type: blob.type || null, error: false });
      },
      () => {
        if (!cancelled) setState({ url, objectUrl: null, type: null, error: true });
      },
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state && state.url === url ? { objectUrl: state.objectUrl, type: state.type, error: state.error } : { objectUrl: null, type: null, error: false };
}

/** Hands a blob to the browser as a download under a name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = objectUrl;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
}

/** Saves a file of the API under its name (the browser's download). */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  saveBlob(await api.blob(`${url}${url.includes('?') ? '&' : '?'}download=1`), fileName);
}

/** A size for people: 512 B, 14 KB, 3.2 MB. */
export function formatBytes(bytes: number, locale: string): string {
  const format = (n: number, digits: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(n);
  if (bytes < 1024) return `${format(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024, 0)} KB`;
  return `${format(bytes / (1024 * 1024), 1)} MB`;
}
