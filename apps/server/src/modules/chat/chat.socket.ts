import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { WebSocket } from 'ws';
import type {} from '@fastify/websocket';
import {
  CHAT_CLOSE,
  CHAT_FILE_MAX_BYTES,
  CHAT_HEARTBEAT_MS,
  CHAT_INLINE_MAX_BYTES,
  CHAT_MAX_ERRORS,
  CHAT_PING_MS,
  CHAT_SLICE_CHARS,
  CHAT_SOCKET_PATH,
  SocketQuerySchema,
  base64DecodedLength,
  isStrictBase64,
  parseClientFrame,
  translate,
  type ChatErrorCode,
  type ClientFrame,
  type FileSliceFrame,
  type InlineFileFrame,
  type QueueEntry,
  type ServerEvent,
  type TextFrame,
} from '@healthbook/shared';
import { FILE_TYPES, sniffFile } from '../../lib/files/file-types';
import { stripMetadata } from '../../lib/files/strip-metadata';
import { SocketSweep, ticketContext, ticketedSocketRoute } from '../../lib/ticketed-socket';
import { cleanFileName } from '../documents/documents.service';
import type { ConversationRow } from './chat.repository';
import {
  CHAT_SOCKET_LIMITS,
  LocalUserSliceLimiter,
  RedisUserSliceLimiter,
  TokenBucket,
  TransferLedger,
  type ChatSocketLimits,
  type UserSliceLimiter,
} from './chat-socket-limits';
import { presentMessage, type ChatBusEvent, type ChatIdentity, type ChatService } from './chat.service';

/** Messages (texts, files, typing) a socket may send in a burst, and how many a second after that. */
const BURST = 20;
const REFILL_PER_S = 5;
/** How long queue recomputations for one organisation are gathered into one. */
const QUEUE_DEBOUNCE_MS = 20;

/** A file arriving in slices: one at a time per socket, dropped when it stalls (see FrameHandler.arm). */
interface Transfer {
  conversationId: number;
  fileName: string;
  contentType: string | undefined;
  clientMessageId: string | undefined;
  nextChunk: number;
  parts: Buffer[];
  bytes: number;
  startedAt: number;
  timer: NodeJS.Timeout | undefined;
}

class RefusedFrame extends Error {
  constructor(
    readonly code: ChatErrorCode,
    readonly vars: Record<string, string> = {},
  ) {
    super(code);
  }
}

/** One open socket: who it is, the conversations it is in, and its frames handled one at a time. */
class ChatSocket {
  readonly id = randomBytes(9).toString('base64url');
  readonly conversations = new Set<number>();
  /**
   * The open conversations' rows as this socket last learnt them (kept by the bus's started and
   * ended events), so a message costs one statement: the insert, which checks again that the
   * conversation is open.
   */
  readonly rows = new Map<number, ConversationRow>();
  alive = true;
  errors = 0;
  /** The file being received in slices (only through startTransfer, addPart and dropTransfer: the ledger counts it). */
  transfer: Transfer | null = null;
  lastPosition: number | null = null;
  private tokens = BURST;
  private refilledAt = Date.now();
  /** Frames are handled in arrival order: a slice after the one before it. */
  chain: Promise<void> = Promise.resolve();
  /** Frames received and not yet handled. */
  pending = 0;
  /** Closed: frames still queued are skipped, nothing is kept. */
  closed = false;
  /** File slices: a faster sender's slices wait for their turn. */
  readonly slices: TokenBucket;

  constructor(
    readonly ws: WebSocket,
    readonly identity: ChatIdentity,
    private readonly ledger: TransferLedger,
    limits: ChatSocketLimits,
  ) {
    this.slices = new TokenBucket(limits.sliceBurst, limits.slicesPerS);
  }

  startTransfer(transfer: Transfer): void {
    this.dropTransfer();
    this.transfer = transfer;
    this.ledger.transfers++;
  }

  addPart(part: Buffer): void {
    const transfer = this.transfer!;
    transfer.parts.push(part);
    transfer.bytes += part.length;
    this.ledger.bytes += part.length;
  }

  /** Forgets the file being received (finished, refused, stalled, or the socket closed). */
  dropTransfer(): void {
    const transfer = this.transfer;
    if (!transfer) return;
    clearTimeout(transfer.timer);
    this.ledger.transfers--;
    this.ledger.bytes -= transfer.bytes;
    transfer.parts = [];
    this.transfer = null;
  }

  /** The socket closed: nothing of it is kept. */
  dispose(): void {
    this.closed = true;
    this.dropTransfer();
    this.rows.clear();
  }

  get userId() {
    return this.identity.actor.userId;
  }
  get orgId() {
    return this.identity.actor.orgId;
  }
  get actor() {
    return this.identity.actor;
  }

  send(event: ServerEvent): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(event));
  }

  /** Takes one message from the socket's allowance; false when it is sending too fast. */
  allow(): boolean {
    const now = Date.now();
    this.tokens = Math.min(BURST, this.tokens + ((now - this.refilledAt) / 1000) * REFILL_PER_S);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * The sockets of this process, and what they are in. Events come from the bus (from this
 * process or another) and go to the sockets concerned; the queue's changes are recomputed once
 * per organisation for the patients waiting and the staff watching here.
 */
export class ChatHub {
  private readonly sockets = new Set<ChatSocket>();
  private readonly byConversation = new Map<number, Set<ChatSocket>>();
  private readonly byUser = new Map<number, Set<ChatSocket>>();
  private readonly queueTimers = new Map<number, NodeJS.Timeout>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Dead sockets are dropped; a socket whose session ended is closed (at once when the database says so). */
  readonly sweep: SocketSweep<ChatSocket>;
  /** What the files being received hold, over every socket here. */
  readonly ledger = new TransferLedger();

  constructor(
    private readonly chat: ChatService,
    private readonly app: FastifyInstance,
    readonly limits: ChatSocketLimits,
    readonly userSlices: UserSliceLimiter,
  ) {
    chat.onEvent((event) => this.onBusEvent(event));
    const every = (ms: number, work: () => Promise<unknown> | void) => {
      const timer = setInterval(() => {
        Promise.resolve()
          .then(work)
          .catch((err: unknown) => app.log.error({ err }, 'chat: periodic work failed'));
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    // Patients with a socket here are still there (the queue counts only those seen lately).
    every(CHAT_HEARTBEAT_MS, () => this.chat.store.touch(this.patientConversations()));
    this.sweep = new SocketSweep(app, { name: 'chat', everyMs: CHAT_PING_MS, sessionEndedCode: CHAT_CLOSE.session, sockets: () => this.sockets });
  }

  get size(): number {
    return this.sockets.size;
  }

  /** The user's open sockets here. */
  socketsOf(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** What the hub holds (tests and diagnostics): after every socket closed, all zero. */
  stats(): { sockets: number; users: number; conversations: number; transfers: number; bufferedBytes: number; sliceCounters: number } {
    return {
      sockets: this.sockets.size,
      users: this.byUser.size,
      conversations: this.byConversation.size,
      transfers: this.ledger.transfers,
      bufferedBytes: this.ledger.bytes,
      sliceCounters: this.userSlices.size,
    };
  }

  private patientConversations(): number[] {
    const ids = new Set<number>();
    for (const s of this.sockets) if (s.identity.role === 'patient' && !s.identity.visit) for (const id of s.conversations) ids.add(id);
    return [...ids];
  }

  private join(s: ChatSocket, conversationId: number): void {
    s.conversations.add(conversationId);
    let set = this.byConversation.get(conversationId);
    if (!set) this.byConversation.set(conversationId, (set = new Set()));
    set.add(s);
  }

  private leave(s: ChatSocket, conversationId: number): void {
    s.conversations.delete(conversationId);
    const set = this.byConversation.get(conversationId);
    set?.delete(s);
    if (set?.size === 0) this.byConversation.delete(conversationId);
  }

  /** Adds an open socket; false when its user already has as many as allowed. */
  add(s: ChatSocket, conversationIds: number[]): boolean {
    let own = this.byUser.get(s.userId);
    if ((own?.size ?? 0) >= this.limits.socketsPerUser) return false;
    this.sockets.add(s);
    this.sweep.watch(s);
    if (!own) this.byUser.set(s.userId, (own = new Set()));
    own.add(s);
    for (const id of conversationIds) this.join(s, id);
    return true;
  }

  remove(s: ChatSocket): void {
    s.dispose();
    this.sockets.delete(s);
    for (const id of [...s.conversations]) this.leave(s, id);
    const own = this.byUser.get(s.userId);
    own?.delete(s);
    if (own?.size === 0) {
      this.byUser.delete(s.userId);
      this.userSlices.forget(s.userId);
    }
  }

  private onBusEvent(event: ChatBusEvent): void {
    switch (event.t) {
      case 'deliver':
        for (const s of this.byConversation.get(event.conversationId) ?? []) {
          if (s.id === event.fromSocket) continue;
          s.send(event.event.type === 'message' ? { ...event.event, me: event.senderUserId === s.userId } : event.event);
        }
        return;
      case 'started':
        for (const s of this.byConversation.get(event.conversationId) ?? []) {
          s.lastPosition = null;
          const row = s.rows.get(event.conversationId);
          if (row) s.rows.set(event.conversationId, { ...row, status: 'active', provider_user_id: event.providerUserId });
          s.send(event.event);
        }
        for (const s of this.byUser.get(event.providerUserId) ?? []) {
          // A provider's socket for a video visit's chat stays in that chat only.
          if (s.identity.role !== 'staff' || s.identity.visit || s.conversations.has(event.conversationId)) continue;
          this.join(s, event.conversationId);
          s.send(event.event);
        }
        return;
      case 'ended':
        for (const s of [...(this.byConversation.get(event.conversationId) ?? [])]) {
          s.rows.delete(event.conversationId);
          s.send(event.event);
          if (s.identity.role === 'patient' || s.identity.visit) s.ws.close(CHAT_CLOSE.ended, 'chat ended');
          else this.leave(s, event.conversationId);
        }
        return;
      case 'queue':
        this.scheduleQueue(event.orgId);
        return;
    }
  }

  private scheduleQueue(orgId: number): void {
    if (this.queueTimers.has(orgId)) return;
    this.queueTimers.set(
      orgId,
      setTimeout(() => {
        this.queueTimers.delete(orgId);
        this.sendQueue(orgId).catch((err: unknown) => this.app.log.error({ err }, 'chat: queue update failed'));
      }, QUEUE_DEBOUNCE_MS),
    );
  }

  /** After a change in an organisation's queue: every waiting patient here gets their position, every console the queue. */
  private async sendQueue(orgId: number): Promise<void> {
    // A video visit's chat is not live help's: its sockets have no queue.
    const here = [...this.sockets].filter((s) => s.orgId === orgId && !s.identity.visit);
    const staff = here.filter((s) => s.identity.role === 'staff');
    const waiting = here.filter((s) => s.identity.role === 'patient' && s.identity.conversationId !== null);
    if (staff.length === 0 && waiting.length === 0) return;
    const lists = new Map<string, QueueEntry[]>();
    const listIn = async (lang: ChatIdentity['lang']) => {
      let list = lists.get(lang);
      if (!list) lists.set(lang, (list = await this.chat.queueOf(orgId, ['coach', 'provider'], lang)));
      return list;
    };
    for (const s of staff) s.send({ type: 'queue', queue: (await listIn(s.identity.lang)).filter((e) => s.identity.types.includes(e.provider_type)) });
    if (waiting.length === 0) return;
    const list = await listIn('en');
    for (const s of waiting) {
      const conversationId = s.identity.conversationId!;
      const entry = list.find((e) => e.conversation_id === conversationId);
      const position = entry ? entry.position : await this.chat.store.position(conversationId);
      if (position !== null && position !== s.lastPosition) {
        s.lastPosition = position;
        s.send({ type: 'position', conversationId, Position: position });
      }
    }
  }

  /** Stopping: every socket is told to come back (to another process, or this one restarted). */
  closeAll(code: number, reason: string): void {
    for (const t of this.timers) clearInterval(t);
    this.sweep.stop();
    for (const t of this.queueTimers.values()) clearTimeout(t);
    for (const s of this.sockets) s.ws.close(code, reason);
  }
}

/** What one socket does with its frames. */
class FrameHandler {
  constructor(
    private readonly chat: ChatService,
    private readonly s: ChatSocket,
    private readonly log: FastifyBaseLogger,
    private readonly limits: ChatSocketLimits,
    private readonly userSlices: UserSliceLimiter,
  ) {}

  /** A frame that arrived while too many were waiting: refused without being queued (a slice drops its file). */
  refuseNow(text: string): void {
    const parsed = parseClientFrame(text);
    if (parsed.ok && parsed.frame.kind === 'slice') this.s.dropTransfer();
    this.error('rateLimited', parsed.ok && 'clientMessageId' in parsed.frame ? parsed.frame : undefined);
  }

  /** Answers a refused frame. The client's mistakes count towards closing the socket; the server's own failures do not. */
  private error(code: ChatErrorCode, frame?: { clientMessageId?: string | undefined; chunkId?: number | undefined }, vars: Record<string, string> = {}): void {
    if (code !== 'serverError') this.s.errors++;
    this.s.send({
      type: 'error',
      code,
      Message: translate(this.s.identity.lang, `chat:errors.${code}`, vars),
      clientMessageId: frame?.clientMessageId ?? null,
      chunkId: frame?.chunkId ?? null,
    });
    if (this.s.errors > CHAT_MAX_ERRORS) this.s.ws.close(CHAT_CLOSE.protocol, 'too many refused messages');
  }

  async handle(text: string): Promise<void> {
    if (this.s.closed) return;
    const parsed = parseClientFrame(text);
    if (!parsed.ok) return this.error(parsed.reason === 'json' ? 'invalidJson' : 'invalidMessage');
    const frame = parsed.frame;
    try {
      await this.dispatch(frame);
    } catch (err) {
      if (err instanceof RefusedFrame) return this.error(err.code, 'clientMessageId' in frame ? frame : undefined, err.vars);
      this.log.error({ err }, 'chat: a message could not be handled');
      if (frame.kind === 'slice') this.s.dropTransfer();
      this.error('serverError', 'clientMessageId' in frame ? frame : undefined);
    }
  }

  private async dispatch(frame: ClientFrame): Promise<void> {
    switch (frame.kind) {
      case 'heartbeat':
        return this.heartbeat();
      case 'text':
        return this.text(frame);
      case 'file':
        return this.inlineFile(frame);
      case 'slice':
        return this.slice(frame);
      case 'typing': {
        if (!this.s.allow()) return;
        const conversation = this.cached(frame) ?? (await this.chat.conversationFor(this.s.identity, frame));
        if (conversation?.status !== 'active') return;
        await this.chat.publish({ t: 'deliver', conversationId: conversation.id, senderUserId: this.s.userId, fromSocket: this.s.id, event: { type: 'typing', conversationId: conversation.id, SenderName: this.s.identity.name } });
        return;
      }
      case 'endChat': {
        // A video visit's chat ends with the visit (POST …/visit/end/), not on its own.
        if (this.s.identity.visit) throw new RefusedFrame('endsWithVisit');
        const conversation = await this.conversation(frame);
        await this.chat.endConversation(conversation, { userId: this.s.userId, name: this.s.identity.name }, this.s.identity.role === 'staff' ? 'provider' : 'patient');
        return;
      }
    }
  }

  private async heartbeat(): Promise<void> {
    const id = this.s.identity.conversationId;
    if (this.s.identity.role !== 'patient' || id === null) return;
    const position = await this.chat.store.position(id);
    if (position !== null) {
      this.s.lastPosition = position;
      this.s.send({ type: 'position', conversationId: id, Position: position });
    }
  }

  /** The conversation a frame is for: the sender must be in it, and it must be open. */
  private async conversation(frame: { conversationId?: number | undefined; ReceiverId?: number | undefined }): Promise<ConversationRow> {
    const cached = this.cached(frame);
    if (cached) return cached;
    const conversation = await this.chat.conversationFor(this.s.identity, frame);
    if (!conversation) throw new RefusedFrame('notInConversation');
    if (conversation.status === 'ended') throw new RefusedFrame('notActive');
    this.s.rows.set(conversation.id, conversation);
    return conversation;
  }

  /** The conversation a frame is for, from what the socket already knows (null: ask the database). */
  private cached(frame: { conversationId?: number | undefined; ReceiverId?: number | undefined }): ConversationRow | null {
    const { identity, rows } = this.s;
    // Someone acting for the patient (the care network) is asked again on every frame, typing and
    // ending included: a removal or a change to read-only holds at the very next one.
    if (identity.actingCtx) return null;
    if (identity.role === 'patient' || identity.visit) {
      if (frame.conversationId !== undefined && frame.conversationId !== identity.conversationId) return null;
      return identity.conversationId === null ? null : (rows.get(identity.conversationId) ?? null);
    }
    if (frame.conversationId !== undefined) return rows.get(frame.conversationId) ?? null;
    if (frame.ReceiverId !== undefined) for (const row of rows.values()) if (row.patient_user_id === frame.ReceiverId) return row;
    return null;
  }

  /** Stores a message (the insert checks the conversation is still open) or refuses the frame. */
  private async post(conversation: ConversationRow, message: Parameters<ChatService['post']>[2]) {
    const stored = await this.chat.post(this.s.identity, conversation, message, this.s.id);
    if (!stored) {
      this.s.rows.delete(conversation.id);
      throw new RefusedFrame('notActive');
    }
    return stored;
  }

  private ack(conversationId: number, ids: { id: number | null; chunkId: number | null; clientMessageId: string | undefined }): void {
    this.s.send({ type: 'ack', received: 'ok', conversationId, chunkId: ids.chunkId, id: ids.id, clientMessageId: ids.clientMessageId ?? null });
  }

  private async text(frame: TextFrame): Promise<void> {
    if (!this.s.allow()) throw new RefusedFrame('rateLimited');
    const body = frame.Msg.trim();
    if (!body) throw new RefusedFrame('emptyMessage');
    const conversation = await this.conversation(frame);
    const { row } = await this.post(conversation, { kind: 'text', body, content_type: 'text/plain', client_message_id: frame.clientMessageId ?? null });
    this.ack(conversation.id, { id: row.id, chunkId: null, clientMessageId: frame.clientMessageId });
  }

  private async inlineFile(frame: InlineFileFrame): Promise<void> {
    if (!this.s.allow()) throw new RefusedFrame('rateLimited');
    if (!isStrictBase64(frame.Msg)) throw new RefusedFrame('sliceInvalid');
    if (base64DecodedLength(frame.Msg) > CHAT_INLINE_MAX_BYTES) throw new RefusedFrame('invalidMessage');
    const conversation = await this.conversation(frame);
    const id = await this.storeFile(conversation, Buffer.from(frame.Msg, 'base64'), frame.fileName, frame.clientMessageId);
    this.ack(conversation.id, { id, chunkId: null, clientMessageId: frame.clientMessageId });
  }

  /**
   * One slice of a larger file: slices come in order (the first is 0 or 1), each at most
   * 32,000 characters of strict base64 (only the last may be padded), the file's name the same
   * throughout, 5,242,880 bytes in all. Anything else drops the transfer and nothing is stored.
   */
  private async slice(frame: FileSliceFrame): Promise<void> {
    const refuse = (code: ChatErrorCode, vars: Record<string, string> = {}) => {
      this.s.dropTransfer();
      return new RefusedFrame(code, vars);
    };
    const turn = await this.sliceTurn();
    if (this.s.closed) return;
    if (!turn) throw refuse('rateLimited');
    const transfer = this.s.transfer;
    if (frame.chunkSize !== frame.Msg.length || !isStrictBase64(frame.Msg) || frame.Msg.length > CHAT_SLICE_CHARS) throw refuse('sliceInvalid');
    if (!frame.isEOF && frame.Msg.includes('=')) throw refuse('sliceInvalid');
    if (transfer) {
      if (frame.chunkId !== transfer.nextChunk || frame.fileName !== transfer.fileName || (frame.conversationId !== undefined && frame.conversationId !== transfer.conversationId)) throw refuse('sliceOrder');
    } else if (frame.chunkId > 1) {
      throw refuse('sliceOrder');
    }
    const conversation = transfer ? (this.s.rows.get(transfer.conversationId) ?? (await this.conversation(frame))) : await this.conversation(frame);
    if (this.s.closed) return;
    // Dropped while the conversation was looked up (it stalled too long, or the socket sent too fast).
    if (transfer && this.s.transfer !== transfer) throw refuse('sliceOrder');
    const part = Buffer.from(frame.Msg, 'base64');
    if ((transfer?.bytes ?? 0) + part.length > CHAT_FILE_MAX_BYTES) throw refuse('fileTooLarge', { name: frame.fileName });
    if (!transfer) {
      this.s.startTransfer({
        conversationId: conversation.id,
        fileName: frame.fileName,
        contentType: frame.contentType,
        clientMessageId: frame.clientMessageId,
        nextChunk: frame.chunkId,
        parts: [],
        bytes: 0,
        startedAt: Date.now(),
        timer: undefined,
      });
    }
    const current = this.s.transfer!;
    this.s.addPart(part);
    current.nextChunk = frame.chunkId + 1;
    if (!frame.isEOF) {
      this.arm(current);
      return this.ack(conversation.id, { id: null, chunkId: frame.chunkId, clientMessageId: current.clientMessageId });
    }
    const data = Buffer.concat(current.parts, current.bytes);
    this.s.dropTransfer();
    const id = await this.storeFile(conversation, data, current.fileName, current.clientMessageId);
    this.ack(conversation.id, { id, chunkId: frame.chunkId, clientMessageId: current.clientMessageId });
  }

  /**
   * Waits for the slice's turn under the socket's and the user's limits; false when that would
   * take longer than `sliceWaitMaxMs` (or the socket closed meanwhile). A client that waits for
   * each acknowledgement, as it should, is simply slowed down.
   */
  private async sliceTurn(): Promise<boolean> {
    const deadline = Date.now() + this.limits.sliceWaitMaxMs;
    const waitFor = async (take: () => number | Promise<number>) => {
      for (;;) {
        const ms = await take();
        if (ms === 0) return true;
        if (Date.now() + ms > deadline) return false;
        await sleep(ms);
        if (this.s.closed) return false;
      }
    };
    return (await waitFor(() => this.s.slices.take())) && (await waitFor(() => this.userSlices.take(this.s.userId)));
  }

  /** An unfinished file is dropped after `fileIdleMs` without a slice, or `fileTransferMaxMs` in all. */
  private arm(transfer: Transfer): void {
    clearTimeout(transfer.timer);
    const ms = Math.min(this.limits.fileIdleMs, transfer.startedAt + this.limits.fileTransferMaxMs - Date.now());
    transfer.timer = setTimeout(
      () => {
        if (this.s.transfer !== transfer || this.s.closed) return;
        this.s.dropTransfer();
        this.error('fileTimeout', { clientMessageId: transfer.clientMessageId, chunkId: transfer.nextChunk - 1 });
      },
      Math.max(0, ms),
    );
    transfer.timer.unref();
  }

  /** A whole file: its type from its bytes (the upload allow list), stored, then its message. */
  private async storeFile(conversation: ConversationRow, data: Buffer, fileName: string, clientMessageId: string | undefined): Promise<number> {
    const type = sniffFile(data);
    if (!type) throw new RefusedFrame('fileType');
    const clean = stripMetadata(data, type);
    const key = this.chat.fileKey(conversation, FILE_TYPES[type]);
    await this.chat.putFile(key, clean);
    try {
      const { row, duplicate } = await this.post(conversation, {
        kind: 'file',
        body: cleanFileName(fileName, type),
        content_type: type,
        file_key: key,
        file_name: cleanFileName(fileName, type),
        file_size: clean.length,
        client_message_id: clientMessageId ?? null,
      });
      if (duplicate) await this.chat.deleteFile(key);
      return row.id;
    } catch (err) {
      await this.chat.deleteFile(key).catch(() => undefined);
      throw err;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    chatHub: ChatHub;
  }
}

/** Each app's hub, by its HTTP server (the hub lives in an encapsulated context; tests read its figures). */
export const chatHubs = new WeakMap<Server, ChatHub>();

export interface ChatSocketOptions {
  publicUrl: string;
  /** Shared Redis: the per-user slice limit counts across processes. */
  redis?: Redis | undefined;
  /** Other limits than CHAT_SOCKET_LIMITS (tests). */
  limits?: Partial<ChatSocketLimits> | undefined;
}

/**
 * GET /api/v1/chat/socket/ (the public context: the single-use ticket authenticates). The
 * upgrade is refused (403) from a foreign Origin; then the ticket, the session and every query
 * parameter are checked, and a mismatch closes the socket with its CHAT_CLOSE code.
 */
export const chatSocketRoutes: FastifyPluginAsync<ChatSocketOptions> = async (app, { publicUrl, redis, limits: given }) => {
  const chat = app.chat;
  const limits: ChatSocketLimits = { ...CHAT_SOCKET_LIMITS, ...given };
  const userSlices = redis ? new RedisUserSliceLimiter(redis, limits.userSlicesPerS) : new LocalUserSliceLimiter(limits.userSlicesPerS);
  const hub = new ChatHub(chat, app, limits, userSlices);
  app.decorate('chatHub', hub);
  chatHubs.set(app.server, hub);
  app.addHook('preClose', (done) => {
    hub.closeAll(CHAT_CLOSE.restarting, 'server restarting');
    done();
  });

  ticketedSocketRoute(app, {
    name: 'chat',
    path: CHAT_SOCKET_PATH,
    publicUrl,
    earlyFramesMax: 50,
    open,
    frames: (s, request) => {
      const handler = new FrameHandler(chat, s, request.log, limits, userSlices);
      return (text) => {
        if (s.closed) return;
        // A sender that does not wait for acknowledgements: what it sends beyond the queue is refused, not kept.
        if (s.pending >= limits.pendingFramesMax) return handler.refuseNow(text);
        s.pending++;
        s.chain = s.chain.then(() => handler.handle(text)).finally(() => void s.pending--);
      };
    },
  });

  async function open(socket: WebSocket, request: FastifyRequest): Promise<ChatSocket | null> {
    const query = SocketQuerySchema.safeParse(request.query);
    if (!query.success) {
      const ticketBad = !(request.query as Record<string, unknown> | undefined)?.ticket;
      socket.close(ticketBad ? CHAT_CLOSE.ticket : CHAT_CLOSE.mismatch, ticketBad ? 'ticket missing' : 'invalid parameters');
      return null;
    }
    const ctx = await ticketContext(app, query.data.ticket, request);
    if (ctx === 'ticket') {
      socket.close(CHAT_CLOSE.ticket, 'ticket invalid, used or expired');
      return null;
    }
    if (ctx === 'session') {
      socket.close(CHAT_CLOSE.session, 'session ended');
      return null;
    }
    const { actor, lang } = ctx;
    const identity = await chat.identify(ctx, query.data);
    if (typeof identity === 'string') {
      if (identity === 'mismatch') await app.audit.record(ctx, { action: 'chat_socket', outcome: 'denied', subject: `user:${actor.userId}`, detail: { reason: identity } });
      const code = { mismatch: CHAT_CLOSE.mismatch, forbidden: CHAT_CLOSE.forbidden, noChat: CHAT_CLOSE.noChat }[identity];
      socket.close(code, identity);
      return null;
    }
    if (socket.readyState !== socket.OPEN) return null;
    const tooMany = () => {
      socket.send(
        JSON.stringify({ type: 'error', code: 'tooManySockets', Message: translate(lang, 'chat:errors.tooManySockets'), clientMessageId: null, chunkId: null } satisfies ServerEvent),
      );
      socket.close(CHAT_CLOSE.tooManySockets, 'too many sockets');
      return null;
    };
    if (hub.socketsOf(actor.userId) >= limits.socketsPerUser) return tooMany();

    const s = new ChatSocket(socket, identity, hub.ledger, limits);
    const conversations = await chat.conversationsOf(identity);
    for (const c of conversations) s.rows.set(c.id, c);
    if (socket.readyState !== socket.OPEN) return null;
    // Counted again as it is added: sockets opened together all passed the check above.
    if (
      !hub.add(
        s,
        conversations.map((c) => c.id),
      )
    )
      return tooMany();
    socket.on('close', () => hub.remove(s));
    if (socket.readyState !== socket.OPEN) {
      hub.remove(s);
      return null;
    }

    s.send({
      type: 'welcome',
      role: identity.role,
      userId: actor.userId,
      conversations: conversations.map((c) => ({
        conversation_id: c.id,
        status: c.status,
        patient_id: c.patient_id,
        patient_name: c.patient_name,
        provider_name: c.provider_name,
        provider_type: c.provider_type,
        reason_for_visit: translate(identity.lang, `chat:reasons.${c.reason}`),
      })),
    });
    for (const c of conversations) {
      if (identity.role === 'patient' && c.status === 'active' && c.provider_name && c.started_at) {
        s.send({
          type: 'started',
          conversationId: c.id,
          provider_name: c.provider_name,
          provider_type: c.provider_type,
          patient_name: c.patient_name,
          patient_id: c.patient_id,
          reason_for_visit: translate(identity.lang, `chat:reasons.${c.reason}`),
          startedAt: new Date(c.started_at).toISOString(),
        });
      }
      // What was said since the client's last message (everything, on a first connection).
      for (const row of await chat.store.messages(c.id, query.data.lastMessageId ?? 0)) s.send(presentMessage(row, actor.userId, c.provider_type));
    }
    if (identity.visit) {
      // A visit's chat: no presence to keep, no queue.
    } else if (identity.role === 'patient') {
      await chat.store.touch(conversations.map((c) => c.id));
      if (conversations.some((c) => c.status === 'queued')) await chat.publish({ t: 'queue', orgId: actor.orgId });
    } else {
      s.send({ type: 'queue', queue: await chat.queueOf(actor.orgId, identity.types, identity.lang) });
    }
    return s;
  }
};
