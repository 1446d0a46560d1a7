import { INCORRECT_CREDENTIALS, PATIENT_HEADER, REFRESH_PATH } from '@healthbook/shared/constants';
import { session } from './session';
import { viewingPatient } from './viewing-patient';

/** An answer other than 2xx. `data` is the parsed body: {"detail": ...} or {"field": [...]}. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
  ) {
    super(typeof data === 'object' && data && 'detail' in data ? String((data as { detail: unknown }).detail) : `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The patient this tab is viewing, for the server (nothing while on one's own record). */
function viewingHeader(): Record<string, string> {
  const patient = viewingPatient.get();
  return patient === null ? {} : { [PATIENT_HEADER]: String(patient) };
}

/** The name of the Web Lock under which the tabs of one browser renew the session, one at a time. */
export const TOKEN_RENEWAL_LOCK = 'healthbook-token-renewal';

/** What the client needs of the Web Locks API (navigator.locks). */
export interface Locks {
  request(name: string, callback: () => Promise<string | null>): Promise<string | null>;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  getLanguage: () => string;
  /** Web Locks; without them (jsdom, older browsers) a tab renews without waiting for the others. */
  locks?: Locks | undefined;
}

/**
 * The one request layer: adds `Authorization: Bearer` and `Accept-Language`; on a 401 with a
 * token (not from the refresh call, and not the wrong-credentials answer) it renews the access
 * token once and retries once. Requests failing together share one renewal.
 *
 * The refresh token is an HttpOnly cookie shared by every tab, and it works once (a rotated one
 * presented again ends the whole session). So renewals take a Web Lock across tabs, and a tab
 * that finds, once it holds the lock, another access token in storage than the one that failed
 * (another tab renewed meanwhile) uses that one instead of renewing again.
 */
export function createApiClient(deps: ApiClientDeps) {
  let renewal: Promise<string | null> | null = null;
  const oneTabAtATime = (renewOnce: () => Promise<string | null>) =>
    deps.locks ? deps.locks.request(TOKEN_RENEWAL_LOCK, renewOnce) : renewOnce();

  async function parse(response: Response): Promise<unknown> {
    if (response.status === 204 || response.headers.get('content-length') === '0') return null;
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) return response.json().catch(() => null);
    const text = await response.text();
    return text === '' ? null : text;
  }

  async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': deps.getLanguage(), ...viewingHeader(), ...options.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body instanceof Blob) {
      // A file sent as it is (a CSV upload): its own type.
      headers['Content-Type'] = options.body.type || 'application/octet-stream';
      body = options.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    // Same-origin credentials: the refresh cookie goes along to the refresh and logout paths.
    return deps.fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
  }

  /**
   * Renews the access token that failed (POST refresh with `{}`: the server reads the cookie; a
   * `refresh` in the answer is ignored). A 401 there ends the session. Answers the token to
   * retry with, or null.
   */
  function renew(failed: string): Promise<string | null> {
    renewal ??= oneTabAtATime(async () => {
      const current = session.get()?.access ?? null;
      // Renewed by another tab while this one waited for the lock (or signed out): nothing to renew.
      if (current !== failed) return current;
      try {
        const response = await send(REFRESH_PATH, { method: 'POST', body: {} }, null);
        if (!response.ok) {
          if (response.status === 401) session.destroy();
          return null;
        }
        const data = (await parse(response)) as { access?: string } | null;
        if (!data?.access) return null;
        session.setAccess(data.access);
        return data.access;
      } catch {
        return null;
      }
    }).finally(() => {
      renewal = null;
    });
    return renewal;
  }

  /** Sends a request (renewing the token once on a 401); answers the raw response, whatever its status. */
  async function respond(path: string, options: RequestOptions = {}): Promise<Response> {
    const token = session.get()?.access ?? null;
    let response = await send(path, options, token);
    if (response.status === 401 && token && !path.startsWith(REFRESH_PATH)) {
      const data = await parse(response);
      const detail = typeof data === 'object' && data && 'detail' in data ? (data as { detail: unknown }).detail : data;
      if (detail === INCORRECT_CREDENTIALS) throw new ApiError(401, data);
      const renewed = await renew(token);
      if (!renewed) throw new ApiError(401, data);
      response = await send(path, options, renewed);
    }
    return response;
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const response = await respond(path, options);
    const data = await parse(response);
    if (!response.ok) {
      // Acting on another's record and refused: the access may have ended or changed (lib/record-access.ts checks).
      if ((response.status === 404 || response.status === 403) && viewingPatient.get() !== null) viewingPatient.doubt();
      throw new ApiError(response.status, data);
    }
    return data as T;
  }

  /** A file the API serves behind the Authorization header (an <img> or a link cannot send it). */
  async function blob(path: string, options: RequestOptions = {}): Promise<Blob> {
    const response = await respond(path, { ...options, headers: { Accept: '*/*', ...options.headers } });
    if (!response.ok) throw new ApiError(response.status, await parse(response));
    return response.blob();
  }

  /**
   * A file the API serves behind the Authorization header, read as it arrives: `onProgress` gets
   * the fraction received (0..1) when the size is known (Content-Length), null otherwise.
   */
  async function download(path: string, onProgress?: (fraction: number | null) => void, options: RequestOptions = {}): Promise<Blob> {
    const response = await respond(path, { ...options, headers: { Accept: '*/*', ...options.headers } });
    if (!response.ok) throw new ApiError(response.status, await parse(response));
    const total = Number(response.headers.get('content-length')) || 0;
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    if (!response.body) return response.blob();
    const reader = response.body.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let received = 0;
    onProgress?.(total ? 0 : null);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array<ArrayBuffer>);
      received += value.byteLength;
      onProgress?.(total ? Math.min(1, received / total) : null);
    }
    return new Blob(chunks, { type });
  }

  /** One multipart upload through XMLHttpRequest, the only browser API that reports upload progress. */
  function xhrUpload(path: string, form: FormData, token: string | null, onProgress?: (fraction: number) => void): Promise<{ status: number; data: unknown }> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', path);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.setRequestHeader('Accept-Language', deps.getLanguage());
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      for (const [name, value] of Object.entries(viewingHeader())) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => {
        let data: unknown = xhr.responseText;
        try {
          data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: xhr.status, data });
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.send(form);
    });
  }

  /** POST a multipart form with progress (0..1); the same renewal on a 401 as every other call. */
  async function upload<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
    const token = session.get()?.access ?? null;
    let answer = await xhrUpload(path, form, token, onProgress);
    if (answer.status === 401 && token) {
      const detail = typeof answer.data === 'object' && answer.data && 'detail' in answer.data ? (answer.data as { detail: unknown }).detail : answer.data;
      if (detail === INCORRECT_CREDENTIALS) throw new ApiError(401, answer.data);
      const renewed = await renew(token);
      if (!renewed) throw new ApiError(401, answer.data);
      answer = await xhrUpload(path, form, renewed, onProgress);
    }
    if (answer.status < 200 || answer.status >= 300) throw new ApiError(answer.status, answer.data);
    return answer.data as T;
  }

  return {
    request,
    blob,
    download,
    upload,
    get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>(path, { ...options, method: 'POST', body }),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>(path, { ...options, method: 'PUT', body }),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>(path, { ...options, method: 'PATCH', body }),
    delete: <T>(path: string, options?: RequestOptions) => request<T>(path, { ...options, method: 'DELETE' }),
    head: async (path: string): Promise<boolean> => (await send(path, { method: 'HEAD' }, null)).ok,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

let currentLanguage = 'en';
export function setApiLanguage(lang: string): void {
  currentLanguage = lang;
}

export const api = createApiClient({
  fetch: (...args) => globalThis.fetch(...args),
  getLanguage: () => currentLanguage,
  locks: typeof navigator !== 'undefined' ? (navigator.locks as Locks | undefined) : undefined,
});
