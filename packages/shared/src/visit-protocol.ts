import { z } from 'zod';

/**
 * The video visit's signalling protocol (issue 29), over its own WebSocket
 * (`VISIT_SOCKET_PATH?ticket=…&slot=<availability_det_id>`), opened with the single-use ticket of
 * `POST /api/v1/appointments/{slot}/visit/ticket/`. The socket only carries what the two browsers
 * say to each other to set up a peer-to-peer call (session descriptions and ICE candidates, as
 * opaque JSON), and what the server tells them about the visit; the media never pass through it.
 *
 * Client → server: `signal` (for the other participant; refused before the provider admitted the
 * patient side), `ping`. Server → client: `welcome`, `peer` (the other side is here or gone),
 * `signal`, `visit` (its state changed: admitted, extended, ended), `error`.
 */

export const VISIT_SOCKET_PATH = '/api/v1/visits/socket/';
/**
 * The largest frame a client may send (a session description fits in about 10 KB): larger ones are
 * refused with an error; past the server's 64 KB for any socket frame, the socket is closed (1009).
 */
export const VISIT_FRAME_MAX_CHARS = 32 * 1024;
/** Frames a socket may send in a burst, and how many a second after that (ICE candidates come in bursts). */
export const VISIT_FRAMES_BURST = 60;
export const VISIT_FRAMES_PER_S = 20;
/** Refused frames after which the socket is closed. */
export const VISIT_MAX_ERRORS = 20;

export const VISIT_CLOSE = {
  /** The ticket is missing, unknown, used or older than 30 s. */
  ticket: 4401,
  /** Not a participant of this appointment, or may not join it (read-only access, feature off). */
  forbidden: 4403,
  /** The appointment is cancelled, its window is not open, or its visit ended. */
  notOpen: 4409,
  /** The visit ended (by either side, or its window closed). */
  ended: 4000,
  /** The session was signed out or ended. */
  session: 4001,
  /** The same participant joined again from another tab or device: this one gives way. */
  replaced: 4002,
  /** Too many malformed or refused frames. */
  protocol: 4400,
  /** The server is restarting: reconnect. */
  restarting: 1012,
} as const;
export type VisitCloseCode = (typeof VISIT_CLOSE)[keyof typeof VISIT_CLOSE];

/** Closes after which reconnecting cannot help. */
export const VISIT_FINAL_CLOSE_CODES: readonly number[] = [VISIT_CLOSE.ticket, VISIT_CLOSE.forbidden, VISIT_CLOSE.notOpen, VISIT_CLOSE.ended, VISIT_CLOSE.session, VISIT_CLOSE.replaced];

export const VisitSocketQuerySchema = z.object({
  ticket: z.string().min(20).max(100),
  slot: z.coerce.number().int().positive().max(2_147_483_647),
});

/** What one browser says to the other: a session description or an ICE candidate, passed on as it is. */
export const SignalDataSchema = z.union([
  z.object({ description: z.object({ type: z.enum(['offer', 'answer', 'pranswer', 'rollback']), sdp: z.string().max(VISIT_FRAME_MAX_CHARS).optional() }) }),
  z.object({
    candidate: z
      .object({ candidate: z.string().max(2000), sdpMid: z.string().max(64).nullable().optional(), sdpMLineIndex: z.number().int().min(0).max(1000).nullable().optional(), usernameFragment: z.string().max(256).nullable().optional() })
      .nullable(),
  }),
  /** The sender's media as the other side should show them (muted, camera off, sharing the screen). */
  z.object({ media: z.object({ audio: z.boolean(), video: z.boolean(), screen: z.boolean() }) }),
  /** Start the call over with new peer connections on both sides (a negotiation that did not connect in time). */
  z.object({ reset: z.literal(true) }),
]);
export type SignalData = z.infer<typeof SignalDataSchema>;

export const VisitClientFrameSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('signal'), data: SignalDataSchema }), z.object({ type: z.literal('ping') })]);
export type VisitClientFrame = z.infer<typeof VisitClientFrameSchema>;

export function parseVisitFrame(text: string): { ok: true; frame: VisitClientFrame } | { ok: false } {
  if (text.length > VISIT_FRAME_MAX_CHARS) return { ok: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const parsed = VisitClientFrameSchema.safeParse(value);
  return parsed.success ? { ok: true, frame: parsed.data } : { ok: false };
}

const role = z.enum(['patient', 'provider']);
const visitStatus = z.enum(['none', 'waiting', 'active', 'ended']);

export const VISIT_ERROR_CODES = ['invalidFrame', 'rateLimited', 'notAdmitted'] as const;
export type VisitErrorCode = (typeof VISIT_ERROR_CODES)[number];

export const VisitServerEventSchema = z.discriminatedUnion('type', [
  /** On joining: the side of this socket and the visit's state (a `peer` event follows when the other side is here). */
  z.object({ type: z.literal('welcome'), role, status: visitStatus, closes_at: z.string() }),
  /** The other side joined or left (a provider sees the patient waiting). */
  z.object({ type: z.literal('peer'), role, present: z.boolean(), acting_for_patient: z.boolean() }),
  z.object({ type: z.literal('signal'), from: role, data: SignalDataSchema }),
  /** The visit's state changed: admitted (active), extended (closes_at), ended. */
  z.object({ type: z.literal('visit'), status: visitStatus, closes_at: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.enum(VISIT_ERROR_CODES), Message: z.string() }),
]);
export type VisitServerEvent = z.infer<typeof VisitServerEventSchema>;
