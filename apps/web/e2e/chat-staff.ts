// The staff side of the chat journeys, driven through the API and a socket of its own, the way
// another client would: sign in, a ticket, the socket (staff query), take a waiting patient, send,
// receive, end. TODO(lead): once the console page `provider/chat` is on main, take the patient,
// chat and end through that page in the coach's own browser context instead.
import { expect } from '@playwright/test';
import WebSocket from 'ws';
import { chatSocketUrl, ServerEventSchema, type ClientFrameInput, type ServerEvent } from '@healthbook/shared/chat-protocol';
import { api, apiLogin, BASE_URL, DEMO_PASSWORD } from './accounts';

export const COACH = 'coach@healthbook.example';
export const COACH_NAME = 'Sofia Antoniou';

export class StaffChat {
  readonly events: ServerEvent[] = [];
  private constructor(
    readonly token: string,
    private readonly ws: WebSocket,
  ) {
    ws.on('message', (data) => {
      const parsed = ServerEventSchema.safeParse(JSON.parse(String(data)));
      if (parsed.success) this.events.push(parsed.data);
    });
  }

  /** Signs the staff member in and opens their socket (ready once the server said welcome). */
  static async open(email = COACH): Promise<StaffChat> {
    const token = await apiLogin(email, DEMO_PASSWORD);
    const me = await api<{ user_id: number; credential: string | null }>('/api/v1/me/', { token });
    expect(me.status).toBe(200);
    const ticket = await api<{ ticket: string }>('/api/v1/chat/ticket/', { body: {}, token });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(200);
    const url = chatSocketUrl(`${BASE_URL.replace(/^http/, 'ws')}/api/v1/chat/socket/`, {
      ticket: ticket.body.ticket,
      userId: me.body.user_id,
      isPatient: false,
      orgName: 'healthbook',
      credential: me.body.credential ?? '',
    });
    const chat = new StaffChat(token, new WebSocket(url));
    await expect.poll(() => chat.events.some((e) => e.type === 'welcome'), { message: 'the staff socket is welcomed' }).toBe(true);
    return chat;
  }

  /** The first event of a type (already received or within the poll's time) that matches. */
  async next<T extends ServerEvent['type']>(type: T, match: (e: Extract<ServerEvent, { type: T }>) => boolean = () => true): Promise<Extract<ServerEvent, { type: T }>> {
    const find = () => this.events.find((e): e is Extract<ServerEvent, { type: T }> => e.type === type && match(e as Extract<ServerEvent, { type: T }>));
    await expect.poll(() => find() !== undefined, { message: `a ${type} event on the staff socket`, timeout: 15_000 }).toBe(true);
    return find()!;
  }

  /** POST /api/v1/chat/queue/take/: the waiting patient's conversation, now with this staff member. */
  async take(conversationId: number) {
    const taken = await api<{ conversation_id: number; status: string }>('/api/v1/chat/queue/take/', { body: { conversation_id: conversationId }, token: this.token });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.status).toBe('active');
  }

  send(frame: ClientFrameInput): void {
    this.ws.send(JSON.stringify(frame));
  }

  say(conversationId: number, text: string): void {
    this.send({ action: 'sendMessage', Msg: text, contentType: 'text/plain', conversationId, clientMessageId: `staff${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}` });
  }

  /** A chat file's bytes, as the staff member downloads them. */
  async file(messageId: number): Promise<Buffer> {
    const res = await fetch(`${BASE_URL}/api/v1/chat/files/${messageId}/`, { headers: { authorization: `Bearer ${this.token}` } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  /** POST /api/v1/peercoaching/endchat/ as the staff member: answers when it ended (ISO). */
  async end(conversationId: number): Promise<string> {
    const ended = await api<{ ended_at: string | null }>('/api/v1/peercoaching/endchat/', { body: { conversation_id: conversationId }, token: this.token });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    return ended.body.ended_at!;
  }

  close(): void {
    this.ws.close();
  }
}

/** The patient's open chat (GET /api/v1/chat/current/), as the patient's own client sees it. */
export async function openChatOf(email: string, password = DEMO_PASSWORD): Promise<{ conversation_id: number; status: string } | null> {
  const token = await apiLogin(email, password);
  const current = await api<{ chat: { conversation_id: number; status: string } | null }>('/api/v1/chat/current/', { token });
  expect(current.status).toBe(200);
  return current.body.chat;
}

/** Ends whatever chat the patient has open (left over from an earlier attempt). */
export async function endOpenChat(email: string, password = DEMO_PASSWORD): Promise<void> {
  const token = await apiLogin(email, password);
  await api('/api/v1/peercoaching/endchat/', { body: {}, token });
}
