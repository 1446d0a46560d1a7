/**
 * The few parts of oidc-provider 8 that the test EHR uses. The package ships no types and
 * @types/oidc-provider is not a dependency of the repository, so this ambient declaration types only
 * what test-ehr.ts calls; remove it if the real types are ever installed.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    application_type?: 'web' | 'native';
    client_name?: string;
    [key: string]: unknown;
  }

  export interface Client {
    clientId: string;
    clientName?: string;
    clientAuthMethod: string;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  /** The koa context, reduced to what the test EHR's middleware reads and writes. */
  export interface KoaContextWithOIDC {
    method: string;
    path: string;
    url: string;
    querystring: string;
    status: number;
    body: unknown;
    req: IncomingMessage;
    res: ServerResponse;
    set(field: string, value: string): void;
    oidc?: {
      route?: string;
      params?: Record<string, unknown>;
      client?: Client;
      account?: Account;
      entities: Record<string, unknown>;
    };
  }

  export type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  export interface Configuration {
    adapter?: new (name: string) => Adapter;
    clients?: ClientMetadata[];
    cookies?: { keys?: string[]; long?: Record<string, unknown>; short?: Record<string, unknown> };
    jwks?: { keys: Record<string, unknown>[] };
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined>;
    claims?: Record<string, string[] | null>;
    scopes?: string[];
    extraParams?: Record<string, ((ctx: KoaContextWithOIDC, value: string | undefined, client: Client) => Promise<void> | void) | null>;
    features?: Record<string, Record<string, unknown>>;
    pkce?: { methods?: string[]; required?: (ctx: KoaContextWithOIDC, client: Client) => boolean };
    interactions?: { url?: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => string };
    routes?: Record<string, string>;
    ttl?: Record<string, number | ((...args: unknown[]) => number)>;
    rotateRefreshToken?: boolean | ((ctx: KoaContextWithOIDC) => boolean);
    responseTypes?: string[];
    clientDefaults?: Partial<ClientMetadata>;
    renderError?: (ctx: KoaContextWithOIDC, out: Record<string, unknown>, error: Error) => Promise<void> | void;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<unknown>;
    conformIdTokenClaims?: boolean;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
    [key: string]: unknown;
  }

  export interface AccessToken {
    jti: string;
    accountId: string;
    clientId: string;
    grantId: string;
    scope?: string;
    exp?: number;
    isExpired: boolean;
    destroy(): Promise<void>;
  }

  export interface Grant {
    jti: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    use(middleware: Middleware): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: InteractionResults, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    Client: { find(id: string): Promise<Client | undefined> };
    AccessToken: { find(token: string): Promise<AccessToken | undefined> };
    Grant: { new (properties: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export const errors: {
    InvalidRequest: new (description: string, status?: number) => Error;
    InvalidTarget: new (description: string) => Error;
  };

  export default Provider;
}
