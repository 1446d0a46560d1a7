import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type {} from '@fastify/websocket';
import { isSupportedLanguage, translate } from '@healthbook/shared';
import type { Actor, SignedInContext } from '../context';
import type {} from '../modules/sockets/socket-tickets.service';

/**
 * What the product's sockets (the chat's, a video visit's) have in common: the upgrade from the
 * product's own pages only, a single-use ticket instead of a token, frames that arrive while the
 * ticket is checked kept (up to a bound) and then handled in order, ping/pong to drop dead
 * sockets, and a socket whose session ended closed.
 */

/** Is the upgrade from the product's own pages? (Non-browser clients send no Origin; the ticket still decides.) */
export function originAllowed(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const allowed = new Set([new URL(publicUrl).origin]);
  const host = request.headers.host;
  if (host) for (const scheme of ['http', 'https']) allowed.add(`${scheme}://${host}`);
  return allowed.has(origin);
}

/**
 * The signed-in context a socket's ticket was given for (its session still live, the language the
 * app asked for the ticket in: a browser's upgrade carries the browser's), or why not: `ticket`
 * (unknown, used or expired), `session` (ended since).
 */
export async function ticketContext(app: FastifyInstance, ticket: string, request: FastifyRequest): Promise<SignedInContext | 'ticket' | 'session'> {
  const held = await app.socketTickets.use(ticket);
  if (!held) return 'ticket';
  const actor = await app.sessionActor(held.session_id, held.user_id);
  if (!actor) return 'session';
  const lang = isSupportedLanguage(held.language) ? held.language : request.lang;
  return { actor, lang, ip: request.ip, log: request.log };
}

export interface TicketedSocketRoute<S> {
  /** Names the socket in the logs ("chat", "visits"). */
  name: string;
  path: string;
  publicUrl: string;
  /** Frames kept while the socket is being opened; later ones are dropped. */
  earlyFramesMax: number;
  /** Checks the ticket and the query and answers the opened socket, or null once it has closed it with its code. */
  open: (socket: WebSocket, request: FastifyRequest) => Promise<S | null>;
  /** Once opened: what takes its frames, in arrival order (a binary frame arrives as "\u0000", which no protocol accepts). */
  frames: (s: S, request: FastifyRequest) => (text: string) => void;
}

/**
 * Registers a ticketed socket's route (in the public context: the ticket authenticates). A foreign
 * Origin is refused (403) before the upgrade; an opening that fails closes the socket with 1011.
 */
export function ticketedSocketRoute<S>(app: FastifyInstance, route: TicketedSocketRoute<S>): void {
  app.get(
    route.path,
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        if (!originAllowed(request, route.publicUrl)) return reply.code(403).send({ detail: translate(request.lang, 'errors:forbidden') });
      },
    },
    (socket, request) => {
      // Frames that arrive while the ticket is checked wait for it.
      const early: string[] = [];
      let onFrame: ((text: string) => void) | null = null;
      socket.on('message', (data, isBinary) => {
        const text = isBinary ? '\u0000' : data.toString();
        if (onFrame) onFrame(text);
        else if (early.length < route.earlyFramesMax) early.push(text);
      });
      void route
        .open(socket, request)
        .then((s) => {
          if (!s) return;
          onFrame = route.frames(s, request);
          for (const text of early.splice(0)) onFrame(text);
        })
        .catch((err: unknown) => {
          request.log.error({ err }, `${route.name}: a socket could not be opened`);
          socket.close(1011, 'server error');
        });
    },
  );
}

/** What the sweep needs of a socket: its WebSocket, whether it answered the last ping, and whose session it runs on. */
export interface SweptSocket {
  readonly ws: WebSocket;
  alive: boolean;
  readonly actor: Pick<Actor, 'userId' | 'orgId' | 'sessionId'>;
}

/**
 * A hub's liveness and session sweep: every `everyMs`, a socket that did not answer the previous
 * ping is terminated and the others are pinged, and each one's session is checked again; when a
 * user's or an organisation's sessions change (in any process), their sockets are checked at
 * once. A socket whose session ended is closed with `sessionEndedCode`.
 */
export class SocketSweep<S extends SweptSocket> {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly app: FastifyInstance,
    private readonly opts: { name: string; everyMs: number; sessionEndedCode: number; sockets: () => Iterable<S> },
  ) {
    this.timer = setInterval(() => void this.sweep().catch((err: unknown) => app.log.error({ err }, `${opts.name}: socket check failed`)), opts.everyMs);
    this.timer.unref();
    app.onSessionsChanged((payload) => {
      const id = Number(payload.slice(1));
      const affected = [...opts.sockets()].filter((s) => (payload.startsWith('u') ? s.actor.userId === id : payload.startsWith('o') ? s.actor.orgId === id : true));
      this.checkSessions(affected).catch((err: unknown) => app.log.error({ err }, `${opts.name}: session check failed`));
    });
  }

  /** A socket joined the hub: its pongs keep it alive. */
  watch(s: S): void {
    s.ws.on('pong', () => {
      s.alive = true;
    });
  }

  /** Drops the sockets that did not answer, pings the others and checks their sessions. */
  async sweep(): Promise<void> {
    const live: S[] = [];
    for (const s of this.opts.sockets()) {
      if (!s.alive) {
        s.ws.terminate();
        continue;
      }
      s.alive = false;
      s.ws.ping();
      live.push(s);
    }
    await this.checkSessions(live);
  }

  private async checkSessions(sockets: readonly S[]): Promise<void> {
    for (const s of sockets) {
      const actor = await this.app.sessionActor(s.actor.sessionId, s.actor.userId);
      if (!actor) s.ws.close(this.opts.sessionEndedCode, 'session ended');
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
