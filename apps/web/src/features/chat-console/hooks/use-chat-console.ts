import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CHAT_FILE_MAX_BYTES } from '@healthbook/shared/chat';
import type { QueueEntry, ServerEvent } from '@healthbook/shared/chat-protocol';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { queryKeys } from '../../../lib/query-keys';
import { transcriptQueryOptions } from '../api/get-transcript';
import { fileErrorOf, getChatTicket, type ChatSocket, type ChatSocketFactory, type ChatSocketStatus } from '../../../lib/chat-socket';
import { consoleReducer, initialConsoleState, type ConsoleState } from '../console-state';
import { mergeQueue, withoutConversation } from '../queue';

export interface ConnectionState {
  status: ChatSocketStatus;
  /** The close code when the connection ended for good. */
  closeCode: number | null;
}

/** Why a file was not sent, for the pane to say (`tooLarge` is checked before anything goes). */
export type FileFailure = { reason: 'tooLarge' | 'busy' | 'notConnected' | 'interrupted' | 'failed'; name: string } | { reason: 'refused'; name: string; message: string };

export interface ChatConsole {
  state: ConsoleState;
  connection: ConnectionState;
  /** Opens a new connection after one that ended for good. */
  reconnect: () => void;
  /** Sends a text (trimmed; empty: nothing). Answers whether it went. */
  sendText: (conversationId: number, text: string) => boolean;
  /** Sends a file; answers why not, or null once the server stored it. */
  sendFile: (conversationId: number, file: File) => Promise<FileFailure | null>;
  typing: (conversationId: number) => void;
  /** A chat taken through REST: its pane opens (and is shown) at once. */
  taken: (conversation: ChatConversation) => void;
  /** The chat was ended (through REST): the pane becomes read-only. */
  endedByMe: (conversationId: number, at: string) => void;
  select: (conversationId: number) => void;
  close: (conversationId: number) => void;
  dismissNotice: () => void;
}

const fullName = (user: UserDto) => `${user.first_name} ${user.last_name}`.trim();

/**
 * The console's live side: one staff socket (isPatient=false, userId, orgName, credential)
 * driving the panes' reducer and the queue's cache; the transcript of each pane opened is read
 * once and merged (a pane opened after a reload, or by a message of a chat not shown yet).
 */
export function useChatConsole({ connect, user, clientId }: { connect: ChatSocketFactory; user: UserDto; clientId: string }): ChatConsole {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(consoleReducer, initialConsoleState);
  const [connection, setConnection] = useState<ConnectionState>({ status: 'idle', closeCode: null });
  const [generation, setGeneration] = useState(0);
  const socket = useRef<ChatSocket | null>(null);
  const name = fullName(user);
  const { i18n } = useTranslation();
  // The queue the page shows is the one of the reader's language (read when an event comes).
  const language = useRef(i18n.resolvedLanguage ?? 'en');
  useEffect(() => {
    language.current = i18n.resolvedLanguage ?? 'en';
  });

  useEffect(() => {
    const onEvent = (event: ServerEvent) => {
      const queueKey = queryKeys.chatConsole.queue(language.current);
      if (event.type === 'queue') {
        const { queue, fresh } = mergeQueue(queryClient.getQueryData<QueueEntry[]>(queueKey), event.queue);
        queryClient.setQueryData(queueKey, queue);
        // Someone new: their reason in the reader's words comes with the REST answer.
        if (fresh) void queryClient.invalidateQueries({ queryKey: queueKey });
      }
      if (event.type === 'started') {
        queryClient.setQueryData(queueKey, (queue: QueueEntry[] | undefined) => queue && withoutConversation(queue, event.conversationId));
      }
      if (event.type === 'started' || event.type === 'ended') void queryClient.invalidateQueries({ queryKey: [...queryKeys.chatConsole.all, 'conversations'] });
      dispatch({ type: 'event', event, now: Date.now() });
    };
    const created = connect({
      role: 'staff',
      query: { isPatient: false, userId: user.user_id, orgName: clientId, credential: user.credential ?? '' },
      getTicket: getChatTicket,
      onEvent,
      onStatus: (status, closeCode) => {
        setConnection({ status, closeCode: status === 'closed' ? (closeCode ?? null) : null });
        // Back after a break: the queue may have moved meanwhile.
        if (status === 'open') void queryClient.invalidateQueries({ queryKey: [...queryKeys.chatConsole.all, 'queue'] });
      },
    });
    socket.current = created;
    created.connect();
    return () => {
      created.close();
      if (socket.current === created) socket.current = null;
    };
  }, [connect, user.user_id, user.credential, clientId, queryClient, generation]);

  // Each pane's transcript, once: what was said before this console was open.
  const asked = useRef(new Set<number>());
  useEffect(() => {
    for (const pane of state.panes) {
      if (pane.loaded || asked.current.has(pane.conversationId)) continue;
      asked.current.add(pane.conversationId);
      queryClient.fetchQuery({ ...transcriptQueryOptions(pane.conversationId), staleTime: 0 }).then(
        (transcript) => dispatch({ type: 'transcript', transcript }),
        () => asked.current.delete(pane.conversationId),
      );
    }
  }, [state.panes, queryClient]);

  const sendText = useCallback(
    (conversationId: number, text: string) => {
      const trimmed = text.trim();
      const current = socket.current;
      if (!trimmed || !current || current.status !== 'open') return false;
      const clientMessageId = current.sendText(trimmed, conversationId);
      if (!clientMessageId) return false;
      dispatch({ type: 'textSent', conversationId, clientMessageId, text: trimmed, senderName: name, sentAt: new Date().toISOString() });
      return true;
    },
    [name],
  );

  const sendFile = useCallback(
    async (conversationId: number, file: File): Promise<FileFailure | null> => {
      if (file.size > CHAT_FILE_MAX_BYTES) return { reason: 'tooLarge', name: file.name };
      const current = socket.current;
      if (!current || current.status !== 'open') return { reason: 'notConnected', name: file.name };
      dispatch({ type: 'fileStarted', conversationId, name: file.name, total: file.size });
      try {
        const sent = await current.sendFile(file, conversationId, (done, total) => dispatch({ type: 'fileProgress', conversationId, sent: done, total }));
        dispatch({
          type: 'fileSent',
          conversationId,
          file: { name: file.name, size: file.size, type: file.type || 'application/octet-stream' },
          id: sent ? sent.id : null,
          clientMessageId: sent?.clientMessageId ?? null,
          senderName: name,
          sentAt: new Date().toISOString(),
        });
        return null;
      } catch (error) {
        dispatch({ type: 'fileFailed', conversationId });
        const { code, serverMessage } = fileErrorOf(error);
        if (serverMessage) return { reason: 'refused', name: file.name, message: serverMessage };
        if (code === 'tooLarge' || code === 'busy' || code === 'notConnected' || code === 'interrupted') return { reason: code, name: file.name };
        return { reason: 'failed', name: file.name };
      }
    },
    [name],
  );

  return {
    state,
    connection,
    reconnect: useCallback(() => setGeneration((g) => g + 1), []),
    sendText,
    sendFile,
    typing: useCallback((conversationId: number) => socket.current?.typing(conversationId), []),
    taken: useCallback((conversation: ChatConversation) => dispatch({ type: 'taken', conversation }), []),
    endedByMe: useCallback((conversationId: number, at: string) => dispatch({ type: 'endedByMe', conversationId, name, at }), [name]),
    select: useCallback((conversationId: number) => dispatch({ type: 'select', conversationId }), []),
    close: useCallback((conversationId: number) => dispatch({ type: 'close', conversationId }), []),
    dismissNotice: useCallback(() => dispatch({ type: 'dismissNotice' }), []),
  };
}
