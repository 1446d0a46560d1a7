import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import { chatFilePath, formatChatExitTime, type ChatProviderType } from '@healthbook/shared/chat';
import { InlineImage } from '../../../components/inline-image';
import { DRAWN_IMAGE_TYPES } from '../../../lib/files';
import type { ChatMessage } from '../chat-store';
import { ChatFileLink, SaveChatFileButton } from './chat-file-actions';

export interface GreetingNames {
  patient: string;
  provider: string;
  providerType: ChatProviderType;
}

export interface ChatMessageListProps {
  messages: ChatMessage[];
  /** The list's accessible name. */
  label: string;
  /** A live chat: announced as it grows (role log) and kept scrolled to the newest. */
  live?: boolean;
  /** The names the greeting is written with, in the reader's language; without them the server's words. */
  greeting?: GreetingNames | null;
  /** "Save to Document Center" on files (the patient's side, the feature active). */
  canSave?: boolean;
}

/**
 * The messages of a chat: the patient's own on the right, the other side's on the left, the
 * notices (the exit, the inactivity prompts) centred; a file as a download link, with "Save to
 * Document Center" when offered; an image shown inline above its link as well. Used by the chat dialog and by a past chat's transcript.
 */
export function ChatMessageList({ messages, label, live = false, greeting = null, canSave = false }: ChatMessageListProps) {
  const { t, i18n } = useTranslation(['liveHelp', 'chat']);
  const scroller = useRef<HTMLDivElement>(null);
  const timeFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { hour: '2-digit', minute: '2-digit' });
  const count = messages.length;
  // The newest message in view: as messages come, and when an image is drawn after it.
  const toNewest = useCallback(() => {
    if (live && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [live]);
  useEffect(() => toNewest(), [toNewest, count]);

  const notice = (message: ChatMessage): string | null => {
    if (message.kind === 'exit') return t('chat:exited', { name: message.senderName, time: formatChatExitTime(message.sentAt) });
    if (message.kind === 'idlePrompt') return t('dialog.idlePrompt');
    if (message.kind === 'idleEnd') return t('dialog.idleEnd');
    return null;
  };
  const text = (message: ChatMessage) =>
    message.kind === 'greeting' && greeting
      ? t('chat:greeting', {
          // As the server writes it: the patient's first name, the provider type in lower case.
          patient: greeting.patient.split(' ')[0] ?? greeting.patient,
          provider: greeting.provider,
          providerType: t(`chat:providerTypes.${greeting.providerType}`).toLocaleLowerCase(i18n.resolvedLanguage ?? 'en'),
        })
      : message.content;

  return (
    <Box
      ref={scroller}
      {...(live ? { role: 'log', 'aria-live': 'polite' as const, tabIndex: 0 } : {})}
      aria-label={label}
      sx={{ flex: 1, minHeight: 0, overflowY: live ? 'auto' : 'visible', px: 1.5, py: 1, '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } }}
    >
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
        {messages.map((message) => {
          const centred = notice(message);
          if (centred !== null)
            return (
              <Box component="li" key={message.key} sx={{ alignSelf: 'center', textAlign: 'center', maxWidth: '92%' }}>
                <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
                  {centred}
                </Typography>
              </Box>
            );
          const who = message.me ? t('dialog.you') : message.senderName;
          return (
            <Box component="li" key={message.key} sx={{ alignSelf: message.me ? 'flex-end' : 'flex-start', maxWidth: '85%', textAlign: message.me ? 'right' : 'left' }}>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ m: 0, px: 0.5 }}>
                {who} · <time dateTime={message.sentAt}>{timeFormat.format(new Date(message.sentAt))}</time>
              </Typography>
              <Box
                sx={(theme) => ({
                  display: 'inline-block',
                  textAlign: 'left',
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  ...(message.me
                    ? { bgcolor: theme.palette.primary.main, color: theme.palette.primary.contrastText, borderBottomRightRadius: 4 }
                    : { bgcolor: theme.palette.mode === 'dark' ? theme.palette.grey[800] : theme.palette.grey[100], color: theme.palette.text.primary, borderBottomLeftRadius: 4 }),
                })}
              >
                {message.kind === 'file' ? (
                  <>
                    {message.file && DRAWN_IMAGE_TYPES.has(message.file.content_type) && <InlineImage url={chatFilePath(message.file.id)} alt={message.file.name} onLoad={toNewest} />}
                    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                      <InsertDriveFileOutlined fontSize="small" aria-hidden sx={{ mt: 0.25 }} />
                      <Box sx={{ minWidth: 0 }}>{message.file ? <ChatFileLink file={message.file} /> : message.content}</Box>
                    </Box>
                  </>
                ) : (
                  text(message)
                )}
              </Box>
              {message.kind === 'file' && message.file && canSave && <SaveChatFileButton file={message.file} />}
              {message.error && (
                <Typography variant="caption" color="error" component="p" role="alert" sx={{ m: 0, px: 0.5 }}>
                  {t('dialog.notSent', { reason: message.error })}
                </Typography>
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
