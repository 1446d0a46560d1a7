import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Send from '@mui/icons-material/Send';
import { CHAT_TEXT_MAX } from '@healthbook/shared/chat';
import type { MessageEvent } from '@healthbook/shared/chat-protocol';
import { getChatTicket, type ChatSocket, type ChatSocketFactory, type ChatSocketStatus } from '../../../lib/chat-socket';

export interface Line {
  key: string;
  id: number | null;
  text: string;
  me: boolean;
  sender: string;
  at: string;
  file: boolean;
  /** A notice of the chat rather than a person's words: the greeting, or the end (shown as when the visit ended). */
  notice: 'greeting' | 'exit' | null;
}

/**
 * The visit's chat beside the video: a conversation of the live chat kept with the appointment
 * (GET …/visit/ names it once the provider let the patient in), on the chat's own socket for this
 * one conversation; what was said before a reconnection comes again after the last message seen.
 * It ends with the visit; the transcript stays with the appointment.
 */
export function VisitChat({ connect, conversationId, userId, isPatient, formatTime }: { connect: ChatSocketFactory; conversationId: number; userId: number; isPatient: boolean; formatTime: (instant: string) => string }) {
  const { t } = useTranslation('videoVisit');
  const [lines, setLines] = useState<Line[]>([]);
  const [status, setStatus] = useState<ChatSocketStatus>('idle');
  const [ended, setEnded] = useState(false);
  const [text, setText] = useState('');
  const socket = useRef<ChatSocket | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const headingId = useId();

  useEffect(() => {
    const chat = connect({
      role: isPatient ? 'patient' : 'staff',
      query: { userId, isPatient, conversationId },
      getTicket: getChatTicket,
      onStatus: (next) => setStatus(next),
      onEvent: (event) => {
        if (event.type === 'message') {
          setLines((all) => {
            // Ours, shown when sent, now stored: its id replaces the pending line.
            const pending = event.clientMessageId ? all.findIndex((l) => l.key === event.clientMessageId) : -1;
            const line = lineOf(event);
            if (all.some((l) => l.id === event.id)) return all;
            if (pending >= 0) return all.map((l, i) => (i === pending ? line : l));
            return [...all, line];
          });
        } else if (event.type === 'ack' && event.clientMessageId && event.id !== null) {
          // Ours, stored: its id and the server's time (a message event of it may come too, after a reconnection).
          const { clientMessageId, id } = event;
          setLines((all) => (all.some((l) => l.id === id) ? all.filter((l) => l.key !== clientMessageId) : all.map((l) => (l.key === clientMessageId ? { ...l, id, key: String(id) } : l))));
        } else if (event.type === 'ended') setEnded(true);
      },
    });
    socket.current = chat;
    chat.connect();
    return () => {
      chat.close();
      socket.current = null;
    };
  }, [connect, conversationId, userId, isPatient]);

  // The newest line in view.
  useEffect(() => {
    const box = list.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [lines.length]);

  const send = (event: FormEvent) => {
    event.preventDefault();
    const id = socket.current?.sendText(text, conversationId);
    if (!id) return;
    setLines((all) => [...all, { key: id, id: null, text: text.trim(), me: true, sender: '', at: new Date().toISOString(), file: false, notice: null }]);
    setText('');
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ borderRadius: 3, display: 'flex', flexDirection: 'column', minHeight: { xs: 320, lg: 0 }, maxHeight: { lg: '78vh' } }}>
      <Typography id={headingId} variant="h2" sx={{ px: 2, pt: 2, pb: 1, fontSize: '1.125rem' }}>
        {t('chat.title')}
      </Typography>
      <Box ref={list} role="log" aria-live="polite" aria-labelledby={headingId} tabIndex={0} sx={{ flex: 1, overflowY: 'auto', px: 2, pb: 1, minHeight: 160 }}>
        {lines.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('chat.empty')}
          </Typography>
        )}
        <ChatLines lines={lines} formatTime={formatTime} />
      </Box>
      {ended ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          {t('chat.ended')}
        </Typography>
      ) : (
        <Box component="form" onSubmit={send} sx={{ display: 'flex', gap: 1, p: 1.5, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}>
          <TextField
            label={t('chat.message')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) send(e);
            }}
            multiline
            maxRows={4}
            size="small"
            fullWidth
            slotProps={{ htmlInput: { maxLength: CHAT_TEXT_MAX } }}
            helperText={status === 'reconnecting' ? t('chat.reconnecting') : undefined}
          />
          <IconButton type="submit" color="primary" aria-label={t('chat.send')} disabled={!text.trim() || status !== 'open'}>
            <Send />
          </IconButton>
        </Box>
      )}
    </Paper>
  );
}

/** A stored message of the chat as a line. */
export const lineOf = (event: MessageEvent): Line => ({
  key: String(event.id),
  id: event.id,
  text: event.file?.name ?? event.Message,
  me: event.me,
  sender: event.SenderName,
  at: event.sentAt,
  file: event.kind === 'file',
  notice: event.kind === 'greeting' || event.kind === 'exit' ? event.kind : null,
});

/** The lines of the chat: ours on the right, the other side's on the left, notices centred; each with who and when. */
export function ChatLines({ lines, formatTime }: { lines: readonly Line[]; formatTime: (instant: string) => string }) {
  const { t } = useTranslation('videoVisit');
  return (
    <Stack spacing={1}>
      {lines.map((line) =>
        line.notice ? (
          <Typography key={line.key} variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            {line.notice === 'exit' ? t('chat.endedAt', { time: formatTime(line.at) }) : line.text}
          </Typography>
        ) : (
          <Box key={line.key} sx={{ alignSelf: line.me ? 'flex-end' : 'flex-start', maxWidth: '85%' }}>
            <Box sx={{ px: 1.5, py: 1, borderRadius: 2, bgcolor: line.me ? 'primary.main' : 'action.selected', color: line.me ? 'primary.contrastText' : 'text.primary', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {line.file ? t('chat.file', { name: line.text }) : line.text}
            </Box>
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: line.me ? 'right' : 'left' }}>
              {line.me ? t('chat.you') : line.sender} · {line.id === null ? t('chat.sending') : formatTime(line.at)}
            </Typography>
          </Box>
        ),
      )}
    </Stack>
  );
}
