import { createHash, randomBytes } from 'node:crypto';
import { CHAT_TICKET_TTL_S, type SocketTicket } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { servicePlugin } from '../../lib/service-plugin';
import { SocketTicketsRepository, type TicketHolder } from './socket-tickets.repository';

const hash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * The single-use tickets that open the product's sockets (the chat's, a video visit's): a REST
 * call made with the user's token gives one, valid 30 seconds, and the socket's address carries
 * it instead of a long-lived token. Only its hash is kept; it opens one socket, once. Each caller
 * decides first whether the user may open its socket, and names the socket in the answer.
 */
export class SocketTickets {
  private readonly repo: SocketTicketsRepository;

  constructor(db: Db) {
    this.repo = new SocketTicketsRepository(db);
  }

  /** A new ticket for the signed-in user's session, in the language of the request. */
  async issue(ctx: SignedInContext, socketPath: string): Promise<SocketTicket> {
    const ticket = randomBytes(32).toString('base64url');
    await this.repo.insert(hash(ticket), ctx.actor.userId, ctx.actor.sessionId, ctx.lang, new Date(Date.now() + CHAT_TICKET_TTL_S * 1000));
    return { ticket, expires_in: CHAT_TICKET_TTL_S, socket_path: socketPath };
  }

  /** Uses a ticket: the user, session and language it was given for, or undefined (unknown, used, expired). */
  use(ticket: string): Promise<TicketHolder | undefined> {
    return this.repo.use(hash(ticket));
  }

  /** Forgets old tickets (the scheduler). */
  sweep(): Promise<number> {
    return this.repo.deleteOld();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    socketTickets: SocketTickets;
  }
}

export default servicePlugin('socketTickets', ['db'], (app) => new SocketTickets(app.db));
