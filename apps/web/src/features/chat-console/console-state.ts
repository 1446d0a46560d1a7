import type { ChatProviderType } from '@healthbook/shared/chat';
import type { ChatFile, MessageEvent, ServerEvent } from '@healthbook/shared/chat-protocol';
import type { ChatConversation, ChatTranscript } from '@healthbook/shared/contracts/chat';

/**
 * The console's open chats, as one pure reducer: a pane per conversation the staff member holds,
 * fed by the socket's events (welcome, started, message, ack, error, typing, ended), by the REST
 * answers (a chat taken, a transcript) and by what the staff member does (a text or a file sent,
 * the chat ended, a pane closed). Messages are kept once (by id, and by the client's id for what
 * this console sent) and in the server's order.
 */

export type LineKind = MessageEvent['kind'];

export interface ChatLine {
  /** React key: the stored id once known, the client's id before. */
  key: string;
  id: number | null;
  clientMessageId: string | null;
  kind: LineKind;
  /** The text, or a file's name. */
  text: string;
  senderName: string;
  me: boolean;
  sentAt: string;
  file: ChatFile | null;
  /** pending: sent, not yet acknowledged; failed: refused (nothing stored). */
  state: 'sent' | 'pending' | 'failed';
  /** Why it failed, in the reader's language (the server's words). */
  error: string | null;
}

export interface ChatEnd {
  /** other: the patient (or the server) ended it; me: this staff member did. */
  by: 'other' | 'me';
  name: string;
  at: string;
}

export interface ChatPane {
  conversationId: number;
  patientId: number | null;
  patientName: string;
  providerType: ChatProviderType | null;
  /** The reason's value, when known (a transcript or a taken chat carry it). */
  reason: string | null;
  /** The reason in words. */
  reasonForVisit: string;
  status: 'active' | 'ended';
  lines: ChatLine[];
  /** The conversation's transcript was merged in (asked once per pane). */
  loaded: boolean;
  end: ChatEnd | null;
  /** When the patient last said they were typing (ms), and who. */
  typingAt: number | null;
  /** Messages from the other side while the pane was not the one shown. */
  unread: number;
  /** The attachment going out, with its progress. */
  sending: { name: string; sent: number; total: number } | null;
}

export interface ConsoleState {
  panes: ChatPane[];
  /** The pane shown (its conversation id). */
  selected: number | null;
  /** A refusal the console could not place on a message of a pane (the server's words). */
  notice: string | null;
  /** Conversations whose pane the staff member closed after they ended: a late event does not open them again. */
  closed: number[];
}

export const initialConsoleState: ConsoleState = { panes: [], selected: null, notice: null, closed: [] };

export type ConsoleAction =
  | { type: 'event'; event: ServerEvent; now: number }
  | { type: 'taken'; conversation: ChatConversation }
  | { type: 'transcript'; transcript: ChatTranscript }
  | { type: 'textSent'; conversationId: number; clientMessageId: string; text: string; senderName: string; sentAt: string }
  | { type: 'fileStarted'; conversationId: number; name: string; total: number }
  | { type: 'fileProgress'; conversationId: number; sent: number; total: number }
  | { type: 'fileSent'; conversationId: number; file: { name: string; size: number; type: string }; id: number | null; clientMessageId: string | null; senderName: string; sentAt: string }
  | { type: 'fileFailed'; conversationId: number }
  | { type: 'endedByMe'; conversationId: number; name: string; at: string }
  | { type: 'select'; conversationId: number }
  | { type: 'close'; conversationId: number }
  | { type: 'dismissNotice' };

const newPane = (conversationId: number, details: Partial<ChatPane> = {}): ChatPane => ({
  conversationId,
  patientId: null,
  patientName: '',
  providerType: null,
  reason: null,
  reasonForVisit: '',
  status: 'active',
  lines: [],
  loaded: false,
  end: null,
  typingAt: null,
  unread: 0,
  sending: null,
  ...details,
});

/** A stored message as a line. */
export const lineOf = (m: MessageEvent): ChatLine => ({
  key: `m${m.id}`,
  id: m.id,
  clientMessageId: m.clientMessageId,
  kind: m.kind,
  text: m.Message,
  senderName: m.SenderName,
  me: m.me,
  sentAt: m.sentAt,
  file: m.file,
  state: 'sent',
  error: null,
});

/** Stored lines in the server's order (by id), then what is still on its way, in the order sent. */
function ordered(lines: ChatLine[]): ChatLine[] {
  const stored = lines.filter((l) => l.id !== null).sort((a, b) => a.id! - b.id!);
  return [...stored, ...lines.filter((l) => l.id === null)];
}

/**
 * Adds a line unless it is there: the same id is the same message; the same client id is a
 * message this console sent (its pending line becomes the stored one). Answers the lines and
 * whether the line is new.
 */
export function mergeLine(lines: ChatLine[], line: ChatLine): { lines: ChatLine[]; added: boolean } {
  if (line.id !== null && lines.some((l) => l.id === line.id)) return { lines, added: false };
  if (line.clientMessageId) {
    const index = lines.findIndex((l) => l.clientMessageId === line.clientMessageId);
    if (index >= 0) {
      const next = [...lines];
      next[index] = { ...lines[index]!, ...line, key: line.id !== null ? `m${line.id}` : lines[index]!.key, state: 'sent', error: null };
      return { lines: ordered(next), added: false };
    }
  }
  return { lines: ordered([...lines, line]), added: true };
}

function updatePane(state: ConsoleState, conversationId: number, update: (pane: ChatPane) => ChatPane): ConsoleState {
  if (!state.panes.some((p) => p.conversationId === conversationId)) return state;
  return { ...state, panes: state.panes.map((p) => (p.conversationId === conversationId ? update(p) : p)) };
}

/** Adds a pane (or fills in the details of one there), keeping what it already holds. */
function upsertPane(state: ConsoleState, conversationId: number, details: Partial<ChatPane>): ConsoleState {
  const exists = state.panes.some((p) => p.conversationId === conversationId);
  const panes = exists
    ? state.panes.map((p) => (p.conversationId === conversationId ? { ...p, ...details } : p))
    : [...state.panes, newPane(conversationId, details)];
  return { ...state, panes, selected: state.selected ?? conversationId };
}

const detailsOf = (c: ChatConversation): Partial<ChatPane> => ({
  patientId: c.patient_id,
  patientName: c.patient_name,
  providerType: c.provider_type,
  reason: c.reason,
  reasonForVisit: c.reason_for_visit,
});

function onEvent(state: ConsoleState, event: ServerEvent, now: number): ConsoleState {
  switch (event.type) {
    case 'welcome': {
      // The chats this staff member holds (after a reload, or a reconnection).
      let next = state;
      for (const c of event.conversations) {
        if (c.status !== 'active') continue;
        next = upsertPane(next, c.conversation_id, {
          patientId: c.patient_id,
          patientName: c.patient_name,
          providerType: c.provider_type,
          reasonForVisit: c.reason_for_visit,
        });
      }
      return next;
    }
    case 'started':
      return upsertPane({ ...state, closed: state.closed.filter((id) => id !== event.conversationId) }, event.conversationId, {
        patientId: event.patient_id,
        patientName: event.patient_name,
        providerType: event.provider_type,
        reasonForVisit: event.reason_for_visit,
        status: 'active',
        end: null,
      });
    case 'message': {
      if (state.closed.includes(event.conversationId)) return state;
      const base = state.panes.some((p) => p.conversationId === event.conversationId)
        ? state
        : // A message of a chat not shown yet: a pane whose details the transcript fills in.
          upsertPane(state, event.conversationId, event.me ? {} : { patientName: event.SenderName });
      return updatePane(base, event.conversationId, (pane) => {
        const { lines, added } = mergeLine(pane.lines, lineOf(event));
        const unseen = added && !event.me && base.selected !== pane.conversationId;
        return { ...pane, lines, unread: pane.unread + (unseen ? 1 : 0), typingAt: event.me ? pane.typingAt : null };
      });
    }
    case 'ack': {
      if (!event.clientMessageId || event.id === null) return state;
      return updatePane(state, event.conversationId, (pane) => {
        if (!pane.lines.some((l) => l.clientMessageId === event.clientMessageId)) return pane;
        return { ...pane, lines: mergeLine(pane.lines, { ...pane.lines.find((l) => l.clientMessageId === event.clientMessageId)!, id: event.id }).lines };
      });
    }
    case 'error': {
      // Nothing was stored: the message it was about shows why; a refusal of nothing sent here is a notice.
      const pane = event.clientMessageId ? state.panes.find((p) => p.lines.some((l) => l.clientMessageId === event.clientMessageId)) : undefined;
      if (!pane) return { ...state, notice: event.Message };
      return updatePane(state, pane.conversationId, (p) => ({
        ...p,
        lines: p.lines.map((l) => (l.clientMessageId === event.clientMessageId ? { ...l, state: 'failed', error: event.Message } : l)),
      }));
    }
    case 'typing':
      return updatePane(state, event.conversationId, (pane) => (pane.status === 'active' ? { ...pane, typingAt: now } : pane));
    case 'ended':
      return updatePane(state, event.conversationId, (pane) => ({
        ...pane,
        status: 'ended',
        end: pane.end ?? { by: 'other', name: event.SenderName, at: event.endedAt },
        typingAt: null,
        sending: null,
      }));
    default:
      // position (a patient's), queue (kept in the query cache by the page).
      return state;
  }
}

export function consoleReducer(state: ConsoleState, action: ConsoleAction): ConsoleState {
  switch (action.type) {
    case 'event':
      return onEvent(state, action.event, action.now);
    case 'taken': {
      const next = upsertPane(state, action.conversation.conversation_id, { ...detailsOf(action.conversation), status: 'active', end: null });
      return { ...next, selected: action.conversation.conversation_id };
    }
    case 'transcript': {
      const { conversation, messages } = action.transcript;
      return updatePane(state, conversation.conversation_id, (pane) => {
        let lines = pane.lines;
        for (const m of messages) lines = mergeLine(lines, lineOf(m)).lines;
        const end = endOf(conversation);
        return {
          ...pane,
          ...detailsOf(conversation),
          lines,
          loaded: true,
          ...(end && pane.status === 'active' ? { status: 'ended' as const, end: pane.end ?? end } : {}),
        };
      });
    }
    case 'textSent':
      return updatePane(state, action.conversationId, (pane) => ({
        ...pane,
        lines: mergeLine(pane.lines, {
          key: `c${action.clientMessageId}`,
          id: null,
          clientMessageId: action.clientMessageId,
          kind: 'text',
          text: action.text,
          senderName: action.senderName,
          me: true,
          sentAt: action.sentAt,
          file: null,
          state: 'pending',
          error: null,
        }).lines,
      }));
    case 'fileStarted':
      return updatePane(state, action.conversationId, (pane) => ({ ...pane, sending: { name: action.name, sent: 0, total: action.total } }));
    case 'fileProgress':
      return updatePane(state, action.conversationId, (pane) => (pane.sending ? { ...pane, sending: { ...pane.sending, sent: action.sent, total: action.total } } : pane));
    case 'fileSent':
      return updatePane(state, action.conversationId, (pane) => {
        const line: ChatLine = {
          key: action.id !== null ? `m${action.id}` : `f${action.clientMessageId ?? `${pane.lines.length}-${action.sentAt}`}`,
          id: action.id,
          clientMessageId: action.clientMessageId,
          kind: 'file',
          text: action.file.name,
          senderName: action.senderName,
          me: true,
          sentAt: action.sentAt,
          file: action.id !== null ? { id: action.id, name: action.file.name, size: action.file.size, content_type: action.file.type } : null,
          // Stored: the client answered once the server acknowledged the whole file.
          state: 'sent',
          error: null,
        };
        return { ...pane, sending: null, lines: mergeLine(pane.lines, line).lines };
      });
    case 'fileFailed':
      return updatePane(state, action.conversationId, (pane) => ({ ...pane, sending: null }));
    case 'endedByMe':
      return updatePane(state, action.conversationId, (pane) => ({
        ...pane,
        status: 'ended',
        end: { by: 'me', name: action.name, at: action.at },
        typingAt: null,
        sending: null,
      }));
    case 'select':
      return updatePane({ ...state, selected: action.conversationId }, action.conversationId, (pane) => ({ ...pane, unread: 0 }));
    case 'close': {
      const index = state.panes.findIndex((p) => p.conversationId === action.conversationId);
      if (index < 0) return state;
      const panes = state.panes.filter((p) => p.conversationId !== action.conversationId);
      const neighbour = panes[Math.min(index, panes.length - 1)];
      const selected = state.selected === action.conversationId ? (neighbour?.conversationId ?? null) : state.selected;
      return { ...state, panes, selected, closed: [...state.closed, action.conversationId] };
    }
    case 'dismissNotice':
      return { ...state, notice: null };
  }
}

/** How an ended conversation ended, from the staff member's side (who ended it, when); null while it is open. */
export function endOf(conversation: ChatConversation): ChatEnd | null {
  if (conversation.status !== 'ended') return null;
  const byStaff = conversation.end_reason === 'provider';
  return {
    by: byStaff ? 'me' : 'other',
    name: byStaff ? (conversation.provider_name ?? '') : conversation.patient_name,
    at: conversation.ended_at ?? conversation.started_at ?? conversation.queued_at,
  };
}

/** Whether the exit notice comes from a message of the conversation (the server's `exit` message) rather than from the `ended` event. */
export const hasExitLine = (pane: ChatPane): boolean => pane.lines.some((l) => l.kind === 'exit');

/** The pane shown. */
export const selectedPane = (state: ConsoleState): ChatPane | null => state.panes.find((p) => p.conversationId === state.selected) ?? state.panes[0] ?? null;
