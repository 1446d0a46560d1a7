import { setTimeout as sleep } from 'node:timers/promises';
import { addressAllowed, fetchWithTimeout, refreshTokens, SmartGrantError, type OutboundPolicy, type SourceClient, type TokenSet } from './smart-client';

/**
 * A source's FHIR API read with a patient's token: every request carries the bearer token,
 * which is refreshed before it expires and once more when the source answers 401; 429 and 5xx
 * (and a network failure) are retried with backoff, honouring Retry-After within a bound; a
 * type the source refuses (403, 404, an OperationOutcome) is told to the caller, who goes on
 * with the rest. Only addresses on the source's own origin are followed (`next` links,
 * attachments): the token never goes anywhere else.
 */

export interface RetryPolicy {
  /** Attempts of one request in all (the first and the retries). */
  attempts: number;
  /** The first backoff, doubled at each retry. */
  baseMs: number;
  /** The longest wait, whatever Retry-After says. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 500, maxWaitMs: 30_000 };

/** The source would not give this (a refusal of the type, not of the connection). */
export class FhirRefused extends Error {
  constructor(readonly status: number) {
    super(`the source refused: ${status}`);
    this.name = 'FhirRefused';
  }
}

/** The source could not be read after the retries (down, or answering 429/5xx throughout). */
export class FhirUnavailable extends Error {
  constructor(readonly status: number | null) {
    super(`the source is unavailable${status ? `: ${status}` : ''}`);
    this.name = 'FhirUnavailable';
  }
}

const RETRIED = new Set([408, 429, 500, 502, 503, 504]);
/** Refresh a token this long before it expires (clocks and the request's own time). */
const EXPIRY_MARGIN_MS = 30_000;

export class SourceFhir {
  private readonly origin: string;

  constructor(
    private readonly source: SourceClient,
    private tokens: TokenSet,
    private readonly policy: OutboundPolicy,
    /** Called with each new token set (the caller seals and keeps it at once). */
    private readonly onTokens: (tokens: TokenSet) => Promise<void>,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {
    this.origin = new URL(source.fhir_base_url).origin;
  }

  /** An address on the source's origin (a relative one resolved against the base), or null for any other. */
  resolve(reference: string): string | null {
    try {
      const url = new URL(reference, `${this.source.fhir_base_url}/`);
      return url.origin === this.origin ? url.toString() : null;
    } catch {
      return null;
    }
  }

  private async refresh(): Promise<void> {
    this.tokens = await refreshTokens(this.source, this.tokens, this.policy);
    await this.onTokens(this.tokens);
  }

  /** A GET of an address of the source: the answer when it is 2xx; FhirRefused, FhirUnavailable or SmartGrantError otherwise. */
  async get(url: string, accept = 'application/fhir+json'): Promise<Response> {
    if (new URL(url).origin !== this.origin) throw new FhirRefused(0);
    if ((await addressAllowed(new URL(url), this.policy)) !== 'ok') throw new FhirRefused(0);
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      if (this.tokens.expires_at && this.tokens.expires_at.getTime() - Date.now() < EXPIRY_MARGIN_MS && this.tokens.refresh_token && !refreshed) {
        await this.refresh();
        refreshed = true;
      }
      // A network failure or a timeout is retried like a 503.
      const response = await fetchWithTimeout(url, { headers: { accept, authorization: `Bearer ${this.tokens.access_token}` } }, this.policy).catch(() => null);
      if (response?.ok) return response;
      const status = response?.status ?? null;
      if (status === 401) {
        await response?.body?.cancel();
        // Once: a token the source no longer takes is refreshed; refused again, the connection needs the patient.
        if (refreshed || !this.tokens.refresh_token) throw new SmartGrantError('refused', 'invalid_token');
        await this.refresh();
        refreshed = true;
        continue;
      }
      if (status !== null && !RETRIED.has(status)) {
        await response?.body?.cancel();
        throw new FhirRefused(status);
      }
      const retryAfter = Number(response?.headers.get('retry-after'));
      await response?.body?.cancel();
      if (attempt >= this.retry.attempts) throw new FhirUnavailable(status);
      const backoff = this.retry.baseMs * 2 ** (attempt - 1);
      await sleep(Math.min(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff, this.retry.maxWaitMs));
    }
  }

  /** The bytes of an address of the source (an attachment), or null when it is over `max` bytes (read no further). */
  async bytes(url: string, accept: string, max: number): Promise<Buffer | null> {
    const response = await this.get(url, accept);
    if (Number(response.headers.get('content-length') ?? 0) > max) {
      await response.body?.cancel();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); reader && part && !part.done; part = await reader.read()) {
      size += part.value.length;
      if (size > max) {
        await reader.cancel();
        return null;
      }
      chunks.push(Buffer.from(part.value));
    }
    const data = Buffer.concat(chunks);
    // A Binary answered as FHIR JSON (a source that ignores Accept) carries the bytes in `data`.
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        const binary = JSON.parse(data.toString('utf8')) as { resourceType?: string; data?: string };
        if (binary.resourceType === 'Binary' && typeof binary.data === 'string') return Buffer.from(binary.data, 'base64');
      } catch {
        return data;
      }
    }
    return data;
  }

  /** A FHIR JSON answer (a Bundle, a resource); an OperationOutcome in place of the Bundle is a refusal. */
  async json(url: string): Promise<Record<string, unknown>> {
    const response = await this.get(url);
    const body = (await response.json().catch(() => null)) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new FhirRefused(response.status);
    const resource = body as Record<string, unknown>;
    if (resource.resourceType === 'OperationOutcome') throw new FhirRefused(response.status);
    return resource;
  }

  /** Every page of a search, from its first address, following `next` links on the source's origin; with the source's time of each page (its meta.lastUpdated). */
  async *pages(first: string): AsyncGenerator<{ resources: Record<string, unknown>[]; at: string | null }> {
    let url: string | null = first;
    const seen = new Set<string>();
    while (url && !seen.has(url)) {
      seen.add(url);
      const bundle = await this.json(url);
      const entries = Array.isArray(bundle.entry) ? (bundle.entry as Array<{ resource?: unknown; search?: { mode?: string } }>) : [];
      const meta = bundle.meta as { lastUpdated?: unknown } | undefined;
      // What the search matched (never the resources it included, nor an OperationOutcome of warnings).
      yield {
        resources: entries
          .filter((e) => e.search?.mode !== 'include' && e.search?.mode !== 'outcome')
          .map((e) => e.resource)
          .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && (r as { resourceType?: unknown }).resourceType !== 'OperationOutcome'),
        at: typeof meta?.lastUpdated === 'string' ? meta.lastUpdated : null,
      };
      const next = Array.isArray(bundle.link) ? (bundle.link as Array<{ relation?: string; url?: string }>).find((l) => l.relation === 'next')?.url : undefined;
      url = next ? this.resolve(next) : null;
    }
  }
}
