import { SHARE_SESSION_HEADER } from '@healthbook/shared/sharing';
import { ApiError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';

/**
 * The recipient's own request layer. A recipient has no account: these calls never carry a
 * signed-in user's Authorization, cookies or the token renewal of lib/api-client.ts. The link's
 * token travels in request bodies, the verified session in the X-Share-Session header; the
 * server answers in the page's language.
 */
export interface ShareRequest {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** The verified session, for the content and its files. */
  session?: string | null;
  signal?: AbortSignal;
}

const language = () => i18n.resolvedLanguage ?? i18n.language ?? 'en';

async function parse(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return response.json().catch(() => null);
  const text = await response.text().catch(() => '');
  return text === '' ? null : text;
}

function send(path: string, { method = 'GET', body, session, signal }: ShareRequest, accept: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept, 'Accept-Language': language() };
  if (session) headers[SHARE_SESSION_HEADER] = session;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
}

/** A JSON call; a non-2xx answer throws ApiError with the parsed body. */
export async function shareRequest<T>(path: string, options: ShareRequest = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  const data = await parse(response);
  if (!response.ok) throw new ApiError(response.status, data);
  return data as T;
}

/** A file (the PDF, a document, an attachment) as a blob. */
export async function shareBlob(path: string, options: ShareRequest = {}): Promise<Blob> {
  const response = await send(path, options, '*/*');
  if (!response.ok) throw new ApiError(response.status, await parse(response));
  return response.blob();
}

export { saveBlob } from '../../../lib/files';
