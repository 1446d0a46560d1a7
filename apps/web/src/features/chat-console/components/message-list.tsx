import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import { chatFilePath, formatChatExitTime } from '@healthbook/shared/chat';
import type { ChatFile } from '@healthbook/shared/chat-protocol';
import { InlineImage } from '../../../components/inline-image';
import { DRAWN_IMAGE_TYPES, formatBytes } from '../../../lib/files';
import { useDownloadChatFile } from '../api/download-chat-file';
import type { ChatEnd, ChatLine } from '../console-state';

export interface MessageListProps {
  lines: ChatLine[];
  /** The end of the chat when no `exit` message says it (the `ended` event, or this staff member ending it). */
  end: ChatEnd | null;
  /** The log's accessible name ("Messages with Maria Papadopoulou"). */
  label: string;
  /** A live conversation is announced as it grows; a transcript is not. */
  live?: boolean;
  /** The patient is typing (their name), or null. */
  typing?: string | null;
  maxHeight?: number | string;
}

/** The exit notice of §4: "<name> exited the chat session at <yyyy-MM-DD hh:mm>" in the reader's local time. */
export function ExitNotice({ end }: { end: ChatEnd }) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const time = formatChatExitTime(end.at);
  return (
    <Typography variant="body2" sx={{ textAlign: 'center', fontWeight: 600, color: 'text.secondary', py: 1 }}>
      {end.by === 'me' ? t('chats.youEnded', { time }) : t('chat:exited', { name: end.name, time })}
    </Typography>
  );
}

/**
 * A conversation's messages: the other side's on the left, the staff member's on the right,
 * the greeting and the exit notice centred; a file is a download (through the authenticated
 * fetcher), an image shown inline above it as well. The list scrolls to the newest message and can be scrolled by keyboard.
 */
export function MessageList({ lines, end, label, live = false, typing = null, maxHeight = 420 }: MessageListProps) {
  const { t, i18n } = useTranslation(['chatConsole', 'chat']);
  const scroller = useRef<HTMLDivElement>(null);
  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { hour: '2-digit', minute: '2-digit' });
  const download = useDownloadChatFile();
  const [failedDownload, setFailedDownload] = useState<number | null>(null);
  const hasExit = lines.some((l) => l.kind === 'exit');

  // The newest message in view: as messages come, and when an image is drawn after it.
  const toNewest = useCallback(() => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, []);
  useEffect(() => toNewest(), [toNewest, lines.length, end, typing]);

  const fetchFile = (file: ChatFile) => {
    setFailedDownload(null);
    download.mutate(file, { onError: () => setFailedDownload(file.id) });
  };

  return (
    <Box
      ref={scroller}
      role="log"
      aria-label={label}
      aria-live={live ? 'polite' : 'off'}
      tabIndex={0}
      sx={{ maxHeight, minHeight: 120, overflowY: 'auto', p: 1.5, bgcolor: 'action.hover', borderRadius: 2, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
    >
      {lines.length === 0 && !end && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 2 }}>
          {t('chats.noMessages')}
        </Typography>
      )}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {lines.map((line) => {
          if (line.kind === 'exit') {
            return (
              <li key={line.key}>
                <ExitNotice end={{ by: line.me ? 'me' : 'other', name: line.senderName, at: line.sentAt }} />
              </li>
            );
          }
          if (line.kind === 'greeting') {
            return (
              <Box component="li" key={line.key} sx={{ textAlign: 'center' }}>
                <Typography variant="body2" sx={{ fontStyle: 'italic', overflowWrap: 'anywhere' }}>
                  {line.text}
                </Typography>
              </Box>
            );
          }
          const who = line.me ? t('message.you') : line.senderName;
          return (
            <Box component="li" key={line.key} sx={{ display: 'flex', justifyContent: line.me ? 'flex-end' : 'flex-start' }}>
              <Box
                sx={{
                  maxWidth: '80%',
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: line.me ? 'primary.main' : 'background.paper',
                  color: line.me ? 'primary.contrastText' : 'text.primary',
                  border: line.me ? 0 : 1,
                  borderColor: 'divider',
                }}
              >
                <Typography variant="caption" component="p" sx={{ fontWeight: 600 }}>
                  {who} · <time dateTime={line.sentAt}>{time.format(new Date(line.sentAt))}</time>
                </Typography>
                {line.kind === 'file' ? (
                  line.file ? (
                    <>
                      {DRAWN_IMAGE_TYPES.has(line.file.content_type) && <InlineImage url={chatFilePath(line.file.id)} alt={line.file.name} onLoad={toNewest} />}
                      <Button
                        size="small"
                        variant={line.me ? 'contained' : 'outlined'}
                        color={line.me ? 'inherit' : 'primary'}
                        startIcon={<Download aria-hidden />}
                        onClick={() => fetchFile(line.file!)}
                        aria-label={t('message.download', { name: line.file.name, size: formatBytes(line.file.size, i18n.resolvedLanguage ?? 'en') })}
                        sx={{ mt: 0.5, textTransform: 'none', overflowWrap: 'anywhere', ...(line.me ? { color: 'text.primary', bgcolor: 'background.paper' } : {}) }}
                      >
                        {line.file.name}
                      </Button>
                    </>
                  ) : (
                    <Typography sx={{ overflowWrap: 'anywhere' }}>{line.text}</Typography>
                  )
                ) : (
                  <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{line.text}</Typography>
                )}
                {line.state === 'pending' && (
                  <Typography variant="caption" component="p">
                    {t('message.sending')}
                  </Typography>
                )}
                {line.state === 'failed' && (
                  <Typography variant="caption" component="p" sx={{ bgcolor: 'background.paper', color: 'error.main', px: 0.5, mt: 0.5, borderRadius: 1 }}>
                    {t('message.notSent', { why: line.error ?? '' })}
                  </Typography>
                )}
                {line.file && failedDownload === line.file.id && (
                  <Typography variant="caption" component="p" role="alert" sx={{ bgcolor: 'background.paper', color: 'error.main', px: 0.5, mt: 0.5, borderRadius: 1 }}>
                    {t('message.downloadFailed')}
                  </Typography>
                )}
              </Box>
            </Box>
          );
        })}
      </Box>
      {end && !hasExit && <ExitNotice end={end} />}
      {typing && (
        <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 1 }}>
          {t('chats.typing', { name: typing })}
        </Typography>
      )}
    </Box>
  );
}
