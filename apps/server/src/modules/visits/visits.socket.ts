import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type {} from '@fastify/websocket';
import {
  VISIT_CLOSE,
  VISIT_FRAMES_BURST,
  VISIT_FRAMES_PER_S,
  VISIT_MAX_ERRORS,
  VISIT_SOCKET_PATH,
  VisitSocketQuerySchema,
  parseVisitFrame,
  translate,
  type VisitErrorCode,
  type VisitServerEvent,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import { HttpError } from '../../lib/http-errors';
import { SocketSweep, ticketContext, ticketedSocketRoute } from '../../lib/ticketed-socket';
import type { AppointmentRow } from '../appointments/appointments.repository';
import { TokenBucket } from '../chat/chat-socket-limits';
import type { VisitBusEvent, VisitsService } from './visits.service';

type Role = 'patient' | 'provider';

const ERROR_KEYS: Record<VisitErrorCode, string> = {
  invalidFrame: 'errors:visitFrameInvalid',
  rateLimited: 'errors:visitRateLimited',
  notAdmitted: 'errors:visitNotAdmitted',
};

/** One participant's socket in one visit. */
class VisitSocket {
  readonly id = randomBytes(9).toString('base64url');
  errors = 0;
  alive = true;
  closeTimer: NodeJS.Timeout | undefined;
  readonly frames = new TokenBucket(VISIT_FRAMES_BURST, VISIT_FRAMES_PER_S);

  constructor(
    readonly ws: WebSocket,
    readonly ctx: SignedInContext,
    readonly row: AppointmentRow,
    readonly role: Role,
    /** The patient side is a carer acting for the patient (the provider is told). */
    readonly acting: boolean,
    public status: 'none' | 'waiting' | 'active' | 'ended',
    public closesAt: Date,
  ) {}

  get appointmentId() {
    return this.row.id;
  }

  get actor() {
    return this.ctx.actor;
  }

  send(event: VisitServerEvent): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(event));
  }
}

/**
 * The visit sockets of this process, by appointment. Events come from the bus (this process or
 * another) and go to the sockets of the visit concerned: a signal only to the other side.
 */
class VisitHub {
  private readonly rooms = new Map<number, Set<VisitSocket>>();
  /** Dead sockets are dropped; a socket whose session ended is closed. */
  private readonly sweep: SocketSweep<VisitSocket>;

  constructor(
    private readonly visits: VisitsService,
    private readonly app: FastifyInstance,
  ) {
    visits.onEvent((event) => this.onBusEvent(event));
    this.sweep = new SocketSweep(app, { name: 'visits', everyMs: 30_000, sessionEndedCode: VISIT_CLOSE.session, sockets: () => this.all() });
  }

  private *all(): Iterable<VisitSocket> {
    for (const room of this.rooms.values()) yield* room;
  }

  get size(): number {
    let n = 0;
    for (const room of this.rooms.values()) n += room.size;
    return n;
  }

  add(s: VisitSocket): void {
    let room = this.rooms.get(s.appointmentId);
    if (!room) this.rooms.set(s.appointmentId, (room = new Set()));
    room.add(s);
    this.sweep.watch(s);
    this.arm(s);
  }

  remove(s: VisitSocket): boolean {
    clearTimeout(s.closeTimer);
    const room = this.rooms.get(s.appointmentId);
    const had = room?.delete(s) ?? false;
    if (room?.size === 0) this.rooms.delete(s.appointmentId);
    return had;
  }

  /** When the window closes, the visit ends (once, whichever process asks first); an extension moves the timer. */
  arm(s: VisitSocket): void {
    clearTimeout(s.closeTimer);
    const ms = Math.max(0, s.closesAt.getTime() - Date.now()) + 250;
    s.closeTimer = setTimeout(() => {
      this.visits.endIfOver(s.appointmentId, s.row.org_id).catch((err: unknown) => this.app.log.error({ err }, 'visits: ending at the window’s close failed'));
    }, Math.min(ms, 2_147_000_000));
    s.closeTimer.unref();
  }

  private onBusEvent(event: VisitBusEvent): void {
    const room = this.rooms.get(event.appointmentId);
    if (!room) return;
    for (const s of [...room]) {
      switch (event.t) {
        case 'joined':
          if (s.role === event.role) {
            // One device per side: the earlier socket gives way to the one that joined.
            if (s.id !== event.socketId) s.ws.close(VISIT_CLOSE.replaced, 'joined elsewhere');
          } else {
            s.send({ type: 'peer', role: event.role, present: true, acting_for_patient: event.acting });
            void this.visits.publish({ t: 'here', appointmentId: s.appointmentId, role: s.role, acting: s.acting });
          }
          break;
        case 'here':
          if (s.role !== event.role) s.send({ type: 'peer', role: event.role, present: true, acting_for_patient: event.acting });
          break;
        case 'left':
          if (s.role !== event.role) s.send({ type: 'peer', role: event.role, present: false, acting_for_patient: false });
          break;
        case 'signal':
          if (s.role !== event.role) s.send({ type: 'signal', from: event.role, data: event.data as never });
          break;
        case 'state':
          s.status = event.status;
          s.closesAt = new Date(event.closesAt);
          s.send({ type: 'visit', status: event.status, closes_at: event.closesAt });
          if (event.status === 'ended') s.ws.close(VISIT_CLOSE.ended, 'visit ended');
          else this.arm(s);
          break;
      }
    }
  }

  closeAll(code: number, reason: string): void {
    this.sweep.stop();
    for (const s of this.all()) s.ws.close(code, reason);
  }
}

/** What one socket's frame asks; refusals are answered, and too many close the socket. */
async function handleFrame(visits: VisitsService, s: VisitSocket, text: string): Promise<void> {
  const refuse = (code: VisitErrorCode) => {
    s.errors++;
    s.send({ type: 'error', code, Message: translate(s.ctx.lang, ERROR_KEYS[code]) });
    if (s.errors >= VISIT_MAX_ERRORS) s.ws.close(VISIT_CLOSE.protocol, 'too many refused frames');
  };
  if (s.frames.take() > 0) return refuse('rateLimited');
  const parsed = parseVisitFrame(text);
  if (!parsed.ok) return refuse('invalidFrame');
  const frame = parsed.frame;
  if (frame.type === 'ping') return s.send({ type: 'pong' });
  // Nothing passes between the two browsers before the provider let the patient side in.
  if (s.status !== 'active') return refuse('notAdmitted');
  await visits.publish({ t: 'signal', appointmentId: s.appointmentId, role: s.role, socketId: s.id, data: frame.data });
}

const CLOSE_FOR: Record<number, number> = { 403: VISIT_CLOSE.forbidden, 404: VISIT_CLOSE.forbidden, 409: VISIT_CLOSE.notOpen };

/**
 * GET /api/v1/visits/socket/?ticket=…&slot=… (the public context: the single-use ticket
 * authenticates). Refused (403) from a foreign Origin; then the ticket, the session, and the
 * visit (a participant, full access, the appointment booked, its window open, not ended): each
 * refusal closes the socket with its VISIT_CLOSE code.
 */
export const visitSocketRoutes: FastifyPluginAsync<{ publicUrl: string }> = async (app, { publicUrl }) => {
  const visits = app.visits;
  const hub = new VisitHub(visits, app);
  app.addHook('preClose', (done) => {
    hub.closeAll(VISIT_CLOSE.restarting, 'server restarting');
    done();
  });

  ticketedSocketRoute(app, {
    name: 'visits',
    path: VISIT_SOCKET_PATH,
    publicUrl,
    earlyFramesMax: 20,
    open,
    frames: (s, request) => {
      let chain = Promise.resolve();
      return (text) => {
        chain = chain.then(() => handleFrame(visits, s, text)).catch((err: unknown) => request.log.error({ err }, 'visits: a frame failed'));
      };
    },
  });

  async function open(socket: WebSocket, request: FastifyRequest): Promise<VisitSocket | null> {
    const query = VisitSocketQuerySchema.safeParse(request.query);
    if (!query.success) {
      socket.close(VISIT_CLOSE.ticket, 'ticket or slot missing');
      return null;
    }
    const ctx = await ticketContext(app, query.data.ticket, request);
    if (ctx === 'ticket') {
      socket.close(VISIT_CLOSE.ticket, 'ticket invalid, used or expired');
      return null;
    }
    if (ctx === 'session') {
      socket.close(VISIT_CLOSE.session, 'session ended');
      return null;
    }
    const { lang } = ctx;
    let joined: Awaited<ReturnType<VisitsService['joinable']>>;
    try {
      joined = await visits.joinable(ctx, query.data.slot);
    } catch (err) {
      if (err instanceof HttpError && CLOSE_FOR[err.statusCode]) {
        socket.close(CLOSE_FOR[err.statusCode]!, translate(lang, err.detail, err.vars).slice(0, 120));
        return null;
      }
      throw err;
    }
    if (socket.readyState !== socket.OPEN) return null;
    const { participant, row, repo, window } = joined;
    const visit = await visits.arrived(participant, repo);
    const acting = participant.side === 'patient' && !participant.grant.isOwner;
    const closesAt = window.closesAt.toISOString();
    const s = new VisitSocket(socket, ctx, row, participant.side, acting, visit?.status ?? 'none', window.closesAt);
    hub.add(s);
    socket.on('close', () => {
      if (!hub.remove(s)) return;
      void visits.publish({ t: 'left', appointmentId: row.id, role: s.role, socketId: s.id });
      void visits.recordPresence(ctx, row, 'visit_leave', s.role).catch((err: unknown) => request.log.error({ err }, 'visits: leave not audited'));
    });
    if (socket.readyState !== socket.OPEN) {
      hub.remove(s);
      return null;
    }
    await visits.recordPresence(ctx, row, 'visit_join', s.role);
    s.send({ type: 'welcome', role: s.role, status: s.status, closes_at: closesAt });
    await visits.publish({ t: 'joined', appointmentId: row.id, role: s.role, socketId: s.id, acting });
    return s;
  }
};
