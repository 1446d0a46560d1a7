import { useSyncExternalStore } from 'react';
import {
  CHAT_CLOSE,
  CHAT_FILE_MAX_BYTES,
  CHAT_GREETING_MARKER,
  CHAT_IDLE_END_MS,
  CHAT_IDLE_PROMPT_MS,
  CHAT_WAIT_TIMEOUT_MS,
  type ChatProviderType,
  patientSocketQuery,
} from '@healthbook/shared/chat';
import type { ChatFile, MessageEvent, ServerEvent } from '@healthbook/shared/chat-protocol';
import type { ChatDetails, ChatTranscript } from '@healthbook/shared/contracts/chat';
import { onClearLocalData } from '../../lib/auth';
import { endChat } from './api/end-chat';
import { getChatTicket } from '../../lib/chat-socket';
import { getCurrentChat } from './api/get-current-chat';
import { getConversation } from './api/conversations';
import { ChatConnection, ChatFileError, type ChatConnectionOptions, type ChatConnectionStatus, type ChatFileErrorCode } from './lib/chat-connection';

/**
 * The patient's live chat (§3 "Chat state", §4 "Chat lifecycle", "Inactivity"), one per tab:
 * the connection, the chat's details with the queue Position, the provider once one took the
 * patient, the messages, which screen the dialog shows (empty, Wait, Chat), whether it is open
 * or minimised, and the inactivity timers. Whether a chat is open is the server's to say: on app
 * load (a reload, signing in again, another device) the user's open chat is asked for
 * (GET /api/v1/chat/current/) and rejoined. The specification's session-storage flag is not kept:
 * signing out clears it, which lost the patient's chat while the coach still had it open.
 * Components read it with useChatState(); it knows nothing of React otherwise.
 */

export type ChatDialogComponent = 'empty' | 'wait' | 'chat';

/**
 * What the message list shows: a person's text or file, the greeting, the exit notice, and
 * the two inactivity notices this client posts itself (their words come from the locale files).
 */
export type ChatMessageKind = MessageEvent['kind'] | 'idlePrompt' | 'idleEnd';

export interface ChatMessage {
  /** A stable key: the message id once stored, else the client's id, else a local counter. */
  key: string;
  /** The stored message's id (null until the server acknowledged one of ours, and for local notices). */
  id: number | null;
  /** The text, or the file's name. */
  content: string;
  me: boolean;
  /** text/plain or the file's type. */
  contentType: string;
  file: ChatFile | null;
  kind: ChatMessageKind;
  clientMessageId: string | null;
  senderName: string;
  /** ISO instant: when it was sent (the exit notice: when the chat ended). */
  sentAt: string;
  /** The server refused it: its words (in the user's language). */
  error: string | null;
}

/** ChatDetails with the queue Position as the socket reports it. */
export type ChatDetailsWithPosition = ChatDetails & { Position: number | null };

export interface PatientProviderDetails {
  provider_name: string;
  provider_type: ChatProviderType;
}

export interface ChatFileProblem {
  code: ChatFileErrorCode;
  name: string;
  /** The server's words, when it refused the file. */
  message: string | null;
}

export interface ChatState {
  status: ChatConnectionStatus;
  /** The close code that ended the connection for good, if any. */
  closeCode: number | null;
  chatDetails: ChatDetailsWithPosition | null;
  patientProviderDetails: PatientProviderDetails | null;
  messages: ChatMessage[];
  component: ChatDialogComponent;
  dialogOpen: boolean;
  minimised: boolean;
  /** False once nobody answered within CHAT_WAIT_TIMEOUT_MS in the queue. */
  providerResponse: boolean;
  sendingAttachment: boolean;
  attachmentProgress: { sent: number; total: number } | null;
  fileProblem: ChatFileProblem | null;
  /** The chat is over: the other side left, the client's inactivity end, the wait ran out, or the server ended it. */
  ended: boolean;
  /** Messages from the other side while the dialog was minimised. */
  unread: number;
  /** Who is typing on the other side (cleared after a few seconds). */
  typing: string | null;
}

export const INITIAL_CHAT_STATE: ChatState = {
  status: 'idle',
  closeCode: null,
  chatDetails: null,
  patientProviderDetails: null,
  messages: [],
  component: 'empty',
  dialogOpen: false,
  minimised: false,
  providerResponse: true,
  sendingAttachment: false,
  attachmentProgress: null,
  fileProblem: null,
  ended: false,
  unread: 0,
  typing: null,
};

/** What the connection must do for the store (ChatConnection, or a fake in tests). */
export type ChatConnectionLike = Pick<ChatConnection, 'connect' | 'close' | 'sendText' | 'sendFile' | 'endChat' | 'typing'>;

export interface ChatStoreDeps {
  createConnection: (options: ChatConnectionOptions) => ChatConnectionLike;
  getTicket: () => Promise<string>;
  /** POST /api/v1/peercoaching/endchat/ */
  endChat: (conversationId: number) => Promise<unknown>;
  /** GET /api/v1/chat/current/ */
  getCurrentChat: () => Promise<ChatDetails | null>;
  /** GET /api/v1/chat/conversations/{id}/ */
  getTranscript: (conversationId: number) => Promise<ChatTranscript>;
}

/** How long a "typing" notice stays without another one. */
const TYPING_SHOWN_MS = 4_000;

/** The socket's query for a patient (§7): from the chat details. */
export const patientQuery = (details: ChatDetails): ChatConnectionOptions['query'] => patientSocketQuery(details);

const fromEvent = (event: MessageEvent): ChatMessage => ({
  key: `m${event.id}`,
  id: event.id,
  content: event.Message,
  me: event.me,
  contentType: event.contentType,
  file: event.file,
  kind: event.kind,
  clientMessageId: event.clientMessageId,
  senderName: event.SenderName,
  sentAt: event.sentAt,
  error: null,
});

/** Whether a message opens the Chat dialog: the greeting (also known by its words, as the original client knew it). */
const isGreeting = (event: MessageEvent) => event.kind === 'greeting' || event.Message.includes(CHAT_GREETING_MARKER);

export type ChatStore = ReturnType<typeof createChatStore>;

export function createChatStore(deps: ChatStoreDeps) {
  let state: ChatState = INITIAL_CHAT_STATE;
  const listeners = new Set<() => void>();
  let connection: ChatConnectionLike | null = null;
  let inactivity: ReturnType<typeof setTimeout> | null = null;
  let typingTimer: ReturnType<typeof setTimeout> | null = null;
  let localCounter = 0;

  const set = (changes: Partial<ChatState>) => {
    state = { ...state, ...changes };
    listeners.forEach((listener) => listener());
  };

  // -- timers (§4 "Inactivity") --------------------------------------------------------------
  const stopTimers = () => {
    if (inactivity) clearTimeout(inactivity);
    inactivity = null;
  };

  /** Restarted on each message sent, each change of the queue position and, in the Chat, each message received. */
  const restartTimer = () => {
    stopTimers();
    if (state.ended || !state.chatDetails) return;
    if (state.component === 'wait') inactivity = setTimeout(waitTimedOut, CHAT_WAIT_TIMEOUT_MS);
    else if (state.component === 'chat')
      inactivity = setTimeout(() => {
        addNotice('idlePrompt');
        inactivity = setTimeout(idleEnded, CHAT_IDLE_END_MS);
      }, CHAT_IDLE_PROMPT_MS);
  };

  const addNotice = (kind: 'idlePrompt' | 'idleEnd') => {
    localCounter += 1;
    const notice: ChatMessage = {
      key: `n${localCounter}`,
      id: null,
      content: '',
      me: false,
      contentType: 'text/plain',
      file: null,
      kind,
      clientMessageId: null,
      senderName: '',
      sentAt: new Date().toISOString(),
      error: null,
    };
    set({ messages: [...state.messages, notice] });
  };

  /** Ends the chat on the server (best effort) and closes the socket: the patient leaves the queue or the chat. */
  const endOnServer = (conversationId: number) => {
    const ending = deps.endChat(conversationId).catch(() => undefined);
    disconnect();
    return ending;
  };

  /** Nobody answered in the queue: the Wait screen says a provider cannot respond now. */
  const waitTimedOut = () => {
    inactivity = null;
    const details = state.chatDetails;
    if (!details) return;
    set({ providerResponse: false, ended: true });
    void endOnServer(details.conversation_id);
  };

  /** The prompt went unanswered: the unavailable notice, then the chat ends. */
  const idleEnded = () => {
    inactivity = null;
    const details = state.chatDetails;
    if (!details) return;
    addNotice('idleEnd');
    set({ ended: true });
    void endOnServer(details.conversation_id);
  };

  // -- the connection ------------------------------------------------------------------------
  const disconnect = () => {
    const current = connection;
    connection = null;
    current?.close();
    if (state.status !== 'idle' && state.status !== 'closed') set({ status: 'closed' });
  };

  const connect = (details: ChatDetails, lastMessageId: number) => {
    disconnect();
    const mine = deps.createConnection({
      role: 'patient',
      query: patientQuery(details),
      // A reconnection must not open a new chat when this one ended meanwhile.
      reconnectQuery: { ...patientQuery(details), reason: undefined, providerType: undefined },
      socketUrl: details.socketURL,
      getTicket: deps.getTicket,
      lastMessageId,
      onEvent: (event) => {
        if (connection === mine) receive(event);
      },
      onStatus: (status, closeCode) => {
        if (connection === mine) statusChanged(status, closeCode);
      },
    });
    connection = mine;
    mine.connect();
  };

  const statusChanged = (status: ChatConnectionStatus, closeCode?: number) => {
    if (status !== 'closed') {
      set({ status, closeCode: null });
      return;
    }
    connection = null;
    set({ status, closeCode: closeCode ?? null });
    if (state.ended) return;
    if (closeCode === CHAT_CLOSE.session) {
      reset();
      return;
    }
    if (closeCode === CHAT_CLOSE.ended || closeCode === CHAT_CLOSE.noChat) {
      // Over on the server's side (the other party, the clean-up, another tab of this patient).
      stopTimers();
      set({ ended: true, ...(state.component === 'wait' ? { providerResponse: false } : {}) });
    }
  };

  const toChat = (provider: PatientProviderDetails | null) => {
    const wasChat = state.component === 'chat';
    set({
      component: 'chat',
      dialogOpen: true,
      ...(wasChat ? {} : { minimised: false }),
      ...(provider ? { patientProviderDetails: provider } : {}),
      ...(state.chatDetails ? { chatDetails: { ...state.chatDetails, status: 'active', ...(provider ? { provider_name: provider.provider_name } : {}) } } : {}),
    });
    if (!wasChat) restartTimer();
  };

  const isOurs = (conversationId: number) => !state.chatDetails || state.chatDetails.conversation_id === conversationId;

  /**
   * The other side (or the server) ended the chat: the exit notice, once, and the timers stop.
   * The stored exit message comes first, then the `ended` event with the instant of the end
   * (the notice's time is taken from it), then the server closes the socket.
   */
  const otherSideEnded = (name: string, at: string, final: boolean) => {
    stopTimers();
    const index = state.messages.findIndex((m) => m.kind === 'exit');
    let messages: ChatMessage[];
    if (index >= 0) {
      messages = state.messages.slice();
      messages[index] = { ...messages[index]!, senderName: name || messages[index]!.senderName, sentAt: at };
    } else {
      localCounter += 1;
      messages = [
        ...state.messages,
        { key: `x${localCounter}`, id: null, content: '', me: false, contentType: 'text/plain', file: null, kind: 'exit', clientMessageId: null, senderName: name, sentAt: at, error: null },
      ];
    }
    set({ ended: true, typing: null, messages });
    if (final) disconnect();
  };

  const receive = (event: ServerEvent) => {
    switch (event.type) {
      case 'welcome': {
        const mine = event.conversations.find((c) => isOurs(c.conversation_id));
        if (mine?.status === 'active' && state.component !== 'chat' && mine.provider_name)
          toChat({ provider_name: mine.provider_name, provider_type: mine.provider_type });
        break;
      }
      case 'position': {
        if (!isOurs(event.conversationId) || !state.chatDetails) break;
        const changed = state.chatDetails.Position !== event.Position;
        set({ chatDetails: { ...state.chatDetails, Position: event.Position } });
        if (changed && state.component === 'wait') restartTimer();
        break;
      }
      case 'started':
        if (isOurs(event.conversationId)) toChat({ provider_name: event.provider_name, provider_type: event.provider_type });
        break;
      case 'message': {
        if (!isOurs(event.conversationId)) break;
        if (event.kind === 'exit' && !event.me) {
          otherSideEnded(event.SenderName, event.sentAt, false);
          break;
        }
        // Ours, stored, seen again (another tab, or replayed after a reconnection): merged with the one shown.
        const index = event.clientMessageId ? state.messages.findIndex((m) => m.clientMessageId === event.clientMessageId) : -1;
        if (index >= 0) {
          const messages = state.messages.slice();
          messages[index] = { ...messages[index]!, id: event.id, file: event.file ?? messages[index]!.file, error: null };
          set({ messages });
          break;
        }
        if (state.messages.some((m) => m.id === event.id)) break;
        const greeting = isGreeting(event);
        set({ messages: [...state.messages, fromEvent(event)], ...(!event.me && state.minimised ? { unread: state.unread + 1 } : {}), typing: null });
        if (greeting && state.component !== 'chat') toChat(event.ProviderType ? { provider_name: event.SenderName, provider_type: event.ProviderType } : null);
        else if (state.component === 'chat' && !event.me) restartTimer();
        break;
      }
      case 'ended':
        if (isOurs(event.conversationId)) otherSideEnded(event.SenderName, event.endedAt, true);
        break;
      case 'ack': {
        if (!event.clientMessageId || event.id === null) break;
        const index = state.messages.findIndex((m) => m.clientMessageId === event.clientMessageId);
        if (index < 0) break;
        const messages = state.messages.slice();
        messages[index] = { ...messages[index]!, id: event.id, key: messages[index]!.key };
        set({ messages });
        break;
      }
      case 'error': {
        const index = event.clientMessageId ? state.messages.findIndex((m) => m.clientMessageId === event.clientMessageId) : -1;
        if (index < 0) break;
        const messages = state.messages.slice();
        messages[index] = { ...messages[index]!, error: event.Message };
        set({ messages });
        break;
      }
      case 'typing':
        if (!isOurs(event.conversationId)) break;
        if (typingTimer) clearTimeout(typingTimer);
        set({ typing: event.SenderName });
        typingTimer = setTimeout(() => set({ typing: null }), TYPING_SHOWN_MS);
        break;
      default:
        break;
    }
  };

  // -- actions -------------------------------------------------------------------------------
  /** Opens the chat the server answered (joining the queue, or the one already open): the dialog on its screen, then the socket. */
  async function start(details: ChatDetails): Promise<void> {
    stopTimers();
    disconnect();
    const active = details.status === 'active';
    set({
      ...INITIAL_CHAT_STATE,
      status: 'connecting',
      chatDetails: { ...details, Position: details.position },
      patientProviderDetails: active && details.provider_name ? { provider_name: details.provider_name, provider_type: details.provider_type } : null,
      component: active ? 'chat' : 'wait',
      dialogOpen: true,
    });
    let lastMessageId = 0;
    if (active) {
      // Joining a chat already under way (a reload, another tab): its messages so far.
      try {
        const transcript = await deps.getTranscript(details.conversation_id);
        const messages = transcript.messages.filter((m) => m.kind !== 'exit').map(fromEvent);
        lastMessageId = transcript.messages.reduce((max, m) => Math.max(max, m.id), 0);
        const { provider_name, provider_type } = transcript.conversation;
        set({ messages, ...(provider_name ? { patientProviderDetails: { provider_name, provider_type } } : {}) });
      } catch {
        // the socket replays what it can
      }
      if (state.chatDetails?.conversation_id !== details.conversation_id) return;
    }
    connect(details, lastMessageId);
    restartTimer();
  }

  let restoring: Promise<void> | null = null;
  /** On app load: the user's open chat is asked for and joined again (once, however many ask). */
  function restore(): Promise<void> {
    restoring ??= rejoin().finally(() => {
      restoring = null;
    });
    return restoring;
  }

  async function rejoin(): Promise<void> {
    if (state.chatDetails) return;
    let details: ChatDetails | null;
    try {
      details = await deps.getCurrentChat();
    } catch {
      return;
    }
    if (details && details.status !== 'ended' && !state.chatDetails) await start(details);
  }

  /** Sends a text: trimmed; an empty one is ignored. Answers whether it went. */
  function sendText(text: string): boolean {
    if (!connection || state.ended || state.component !== 'chat') return false;
    const clientMessageId = connection.sendText(text);
    if (!clientMessageId) return false;
    const message: ChatMessage = {
      key: clientMessageId,
      id: null,
      content: text.trim(),
      me: true,
      contentType: 'text/plain',
      file: null,
      kind: 'text',
      clientMessageId,
      senderName: state.chatDetails?.patient_name ?? '',
      sentAt: new Date().toISOString(),
      error: null,
    };
    set({ messages: [...state.messages, message] });
    restartTimer();
    return true;
  }

  /** Sends a file (PDF or image, at most 5 MB); the file's name shows as a sent message once stored. */
  async function sendFile(file: File): Promise<void> {
    if (file.size > CHAT_FILE_MAX_BYTES) {
      set({ fileProblem: { code: 'tooLarge', name: file.name, message: null } });
      return;
    }
    if (!connection || state.ended || state.sendingAttachment) return;
    set({ sendingAttachment: true, attachmentProgress: { sent: 0, total: file.size }, fileProblem: null });
    try {
      const sent = await connection.sendFile(file, undefined, (done, total) => set({ attachmentProgress: { sent: done, total } }));
      const message: ChatMessage = {
        key: sent.clientMessageId,
        id: sent.id,
        content: file.name,
        me: true,
        contentType: file.type,
        file: sent.id === null ? null : { id: sent.id, name: file.name, size: file.size, content_type: file.type },
        kind: 'file',
        clientMessageId: sent.clientMessageId,
        senderName: state.chatDetails?.patient_name ?? '',
        sentAt: new Date().toISOString(),
        error: null,
      };
      set({ messages: [...state.messages, message] });
      restartTimer();
    } catch (error) {
      const problem = error instanceof ChatFileError ? error : new ChatFileError('interrupted');
      set({ fileProblem: { code: problem.code, name: file.name, message: problem.serverMessage } });
    } finally {
      set({ sendingAttachment: false, attachmentProgress: null });
    }
  }

  /**
   * Close Chat: ends the chat (POST endchat; the socket's endChat when the call fails), closes
   * the connection and the dialog. The caller then goes to the end screen.
   */
  async function closeChat(): Promise<void> {
    const details = state.chatDetails;
    const open = details && !state.ended;
    stopTimers();
    if (open) {
      const socket = connection;
      try {
        await deps.endChat(details.conversation_id);
      } catch {
        socket?.endChat();
      }
    }
    reset();
  }

  /** Forgets the chat (signed out, or after Close Chat). */
  function reset(): void {
    stopTimers();
    if (typingTimer) clearTimeout(typingTimer);
    typingTimer = null;
    const current = connection;
    connection = null;
    current?.close();
    set(INITIAL_CHAT_STATE);
  }

  return {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    start,
    restore,
    sendText,
    sendFile,
    closeChat,
    reset,
    /** The other side sees "typing". */
    typing: () => connection?.typing(),
    /** Opens the dialog, expanded (the peer-coaching page, the dashboard card). */
    openDialog: () => set({ dialogOpen: state.component !== 'empty', minimised: false, unread: 0 }),
    /** Expand / Minimize. */
    toggleMinimised: () => set({ minimised: !state.minimised, unread: 0 }),
    dismissFileProblem: () => set({ fileProblem: null }),
    /** After a connection failure: try again with a new connection. */
    reconnect: () => {
      const details = state.chatDetails;
      if (!details || state.ended) return;
      const last = state.messages.reduce((max, m) => Math.max(max, m.id ?? 0), 0);
      connect(details, last);
    },
    /** Whether the chat is open (queued or with a provider), not over. */
    inProgress: () => state.chatDetails !== null && !state.ended,
  };
}

/** The tab's chat. */
export const chatStore = createChatStore({
  createConnection: (options) => new ChatConnection(options),
  getTicket: getChatTicket,
  endChat: (conversationId) => endChat(conversationId),
  getCurrentChat,
  getTranscript: getConversation,
});
// Signing out forgets the chat and closes its socket.
onClearLocalData(() => chatStore.reset());

/** The chat's state, re-rendering on each change. */
export function useChatState(store: ChatStore = chatStore): ChatState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
