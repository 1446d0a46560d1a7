import { useId, useRef, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import Send from '@mui/icons-material/Send';
import { CHAT_TEXT_MAX } from '@healthbook/shared/chat';
import type { FileFailure } from '../hooks/use-chat-console';

/** The files a chat carries (the server takes PDF and images only). */
export const CHAT_FILE_ACCEPT = 'application/pdf,image/png,image/jpeg,image/gif,image/webp,image/heic,image/heif';

export interface ComposerProps {
  /** The message field (the pane focuses it when a chat was just taken). */
  inputRef?: Ref<HTMLTextAreaElement>;
  connected: boolean;
  /** The attachment going out, or null. */
  sending: { name: string; sent: number; total: number } | null;
  onSend: (text: string) => boolean;
  onFile: (file: File) => Promise<FileFailure | null>;
  onTyping: () => void;
}

/**
 * What the staff member writes (§2 "Chat screen", §5 "Chat"): a text area labelled "Your
 * Message" (Enter sends, Shift+Enter a new line; an empty or blank message is ignored), the send
 * icon, the attachment picker (a file over 5 MB is refused in red, nothing sent), and the
 * "Sending attachment" indicator. Text waits for the connection; attachments wait for it and
 * for the file going out.
 */
export function Composer({ inputRef, connected, sending, onSend, onFile, onTyping }: ComposerProps) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const [text, setText] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim()) return;
    if (onSend(text)) setText('');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  const failureText = (failure: FileFailure) => {
    switch (failure.reason) {
      case 'tooLarge':
        return t('chat:errors.fileTooLarge', { name: failure.name });
      case 'refused':
        return failure.message;
      case 'busy':
        return t('chat:errors.transferBusy');
      case 'notConnected':
        return t('composer.notConnectedFile', { name: failure.name });
      case 'interrupted':
        return t('composer.interrupted', { name: failure.name });
      default:
        return t('composer.fileFailed', { name: failure.name });
    }
  };
  const pick = async (file: File | undefined) => {
    if (picker.current) picker.current.value = '';
    if (!file) return;
    setFileError(null);
    const failure = await onFile(file);
    if (failure) setFileError(failureText(failure));
  };
  const percent = sending && sending.total > 0 ? Math.round((sending.sent / sending.total) * 100) : 0;

  return (
    <Box>
      <Box component="form" onSubmit={send} sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        <input
          ref={picker}
          type="file"
          accept={CHAT_FILE_ACCEPT}
          hidden
          aria-hidden
          tabIndex={-1}
          onChange={(e) => void pick(e.target.files?.[0])}
          data-testid="chat-file-input"
        />
        <IconButton
          aria-label={t('composer.attach')}
          aria-describedby={hintId}
          disabled={!connected || sending !== null}
          onClick={() => picker.current?.click()}
        >
          <AttachFile />
        </IconButton>
        <TextField
          label={t('composer.message')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) onTyping();
          }}
          onKeyDown={onKeyDown}
          disabled={!connected}
          multiline
          maxRows={5}
          fullWidth
          size="small"
          inputRef={inputRef}
          slotProps={{ htmlInput: { maxLength: CHAT_TEXT_MAX } }}
        />
        <IconButton type="submit" color="primary" aria-label={t('composer.send')} disabled={!connected || !text.trim()}>
          <Send />
        </IconButton>
      </Box>
      <Typography id={hintId} variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {connected ? t('composer.fileHint') : t('composer.notConnected')}
      </Typography>
      {sending && (
        <Box role="status" sx={{ mt: 1 }}>
          <Typography variant="body2">
            {t('composer.sendingAttachment')} — {sending.name}
          </Typography>
          <LinearProgress variant="determinate" value={percent} aria-label={t('composer.sendingAttachment')} sx={{ mt: 0.5 }} />
        </Box>
      )}
      {fileError && (
        <Typography role="alert" color="error" variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {fileError}
        </Typography>
      )}
    </Box>
  );
}
