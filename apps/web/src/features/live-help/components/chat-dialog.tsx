import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import OpenInFull from '@mui/icons-material/OpenInFull';
import Remove from '@mui/icons-material/Remove';
import Send from '@mui/icons-material/Send';
import { CHAT_TEXT_MAX } from '@healthbook/shared/chat';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { visuallyHidden } from '../../../components/visually-hidden';
import { paths } from '../../../lib/paths';
import { chatStore, useChatState, type ChatFileProblem, type ChatState, type ChatStore } from '../chat-store';
import { ChatMessageList } from './chat-message-list';

/** The dialog's element id: pages that open it move the focus there. */
export const CHAT_DIALOG_ID = 'live-chat-dialog';

/** The types a chat carries: PDF and images (the server checks the bytes too). */
export const CHAT_FILE_ACCEPT = 'application/pdf,image/png,image/jpeg,image/gif,image/webp,image/heic';

/** Opens (expands) the chat dialog and moves the focus into it. */
export function openChatDialog(store: ChatStore = chatStore): void {
  store.openDialog();
  requestAnimationFrame(() => document.getElementById(CHAT_DIALOG_ID)?.focus());
}

export interface ChatDialogProps {
  clientId: string;
  /** The Document Center is active: files can be saved there. */
  documentsActive: boolean;
  store?: ChatStore;
}

/**
 * The secure chat dialog (§2 "Secure chat dialog"): a non-modal panel at the bottom right, at
 * most 400 px wide, kept across pages by the shell. Its header has Expand/Minimize and Close
 * Chat; its body the Wait screen (the queue position) or the Chat screen (the provider, the
 * messages, a file, the message box). Close Chat asks first while the chat is open ("End this
 * chat?"), then ends it and goes to the end screen; minimising stays one click.
 */
export function ChatDialog({ clientId, documentsActive, store = chatStore }: ChatDialogProps) {
  const state = useChatState(store);
  const { t } = useTranslation(['liveHelp', 'chat']);
  const navigate = useNavigate();
  const titleId = useId();
  const [closing, setClosing] = useState(false);
  const [asking, setAsking] = useState(false);
  if (!state.dialogOpen || state.component === 'empty') return null;

  const close = async () => {
    setClosing(true);
    try {
      await store.closeChat();
    } finally {
      setClosing(false);
    }
    void navigate(paths.chatEnded(clientId));
  };
  /** The header's X: a chat still open is ended only once confirmed; one already over just closes. */
  const closeAsked = () => {
    if (state.ended) void close();
    else setAsking(true);
  };
  const provider = state.patientProviderDetails;

  return (
    <Paper
      id={CHAT_DIALOG_ID}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      elevation={8}
      sx={{
        position: 'fixed',
        right: { xs: 8, sm: 16 },
        bottom: { xs: 8, sm: 16 },
        width: 'calc(100vw - 16px)',
        maxWidth: 400,
        maxHeight: 'calc(100dvh - 96px)',
        height: state.minimised ? 'auto' : 560,
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
        borderRadius: 3,
        zIndex: (th) => th.zIndex.appBar + 50,
        outline: 'none',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pl: 2, pr: 0.5, py: 0.5, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={titleId} variant="h2" sx={{ fontSize: '1.05rem', fontWeight: 700, color: 'inherit' }}>
            {t('dialog.title')}
          </Typography>
          {state.minimised && state.unread > 0 && (
            <Typography variant="caption" role="status" sx={{ color: 'inherit', display: 'block' }}>
              {t('dialog.unread', { count: state.unread })}
            </Typography>
          )}
        </Box>
        <IconButton color="inherit" aria-label={state.minimised ? t('dialog.expand') : t('dialog.minimize')} aria-expanded={!state.minimised} onClick={store.toggleMinimised}>
          {state.minimised ? <OpenInFull fontSize="small" /> : <Remove />}
        </IconButton>
        <IconButton color="inherit" aria-label={t('dialog.close')} onClick={closeAsked} disabled={closing}>
          <CloseIcon />
        </IconButton>
      </Box>

      <Box sx={{ display: state.minimised ? 'none' : 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
        <ConnectionNotice state={state} onRetry={store.reconnect} />
        {state.component === 'wait' ? (
          <WaitScreen state={state} onClose={() => void close()} closing={closing} />
        ) : (
          <>
            {provider && (
              <Box sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{provider.provider_name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t(`chat:providerTypes.${provider.provider_type}`)}
                </Typography>
              </Box>
            )}
            <ChatMessageList
              messages={state.messages}
              label={t('dialog.messages')}
              live
              canSave={documentsActive}
              greeting={provider && state.chatDetails ? { patient: state.chatDetails.patient_name, provider: provider.provider_name, providerType: provider.provider_type } : null}
            />
            {state.typing && !state.ended && (
              <Typography variant="caption" color="text.secondary" sx={{ px: 2 }}>
                {t('dialog.typing', { name: state.typing })}
              </Typography>
            )}
            {state.ended ? (
              <Box sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography role="status" sx={{ flex: 1, minWidth: 140 }}>
                  {t('dialog.ended')}
                </Typography>
                <Button variant="contained" onClick={() => void close()} disabled={closing}>
                  {t('dialog.leave')}
                </Button>
              </Box>
            ) : (
              <Composer state={state} store={store} />
            )}
          </>
        )}
      </Box>
      <ConfirmDialog
        open={asking}
        title={t('dialog.endTitle')}
        onConfirm={() => {
          setAsking(false);
          void close();
        }}
        onCancel={() => setAsking(false)}
        confirmLabel={t('dialog.endConfirm')}
        cancelLabel={t('dialog.endCancel')}
        destructive
      >
        <DialogContentText>{state.component === 'wait' ? t('dialog.endQuestionWaiting') : t('dialog.endQuestion', { name: provider?.provider_name ?? '' })}</DialogContentText>
      </ConfirmDialog>
    </Paper>
  );
}

/** Connecting, reconnecting, or the connection given up on (with a way to try again). */
function ConnectionNotice({ state, onRetry }: { state: ChatState; onRetry: () => void }) {
  const { t } = useTranslation('liveHelp');
  if (state.ended) return null;
  if (state.status === 'reconnecting')
    return (
      <Alert severity="info" sx={{ borderRadius: 0 }}>
        {t('dialog.reconnecting')}
      </Alert>
    );
  if (state.status === 'closed')
    return (
      <Alert severity="warning" sx={{ borderRadius: 0 }} action={<Button color="inherit" size="small" onClick={onRetry}>{t('dialog.retry')}</Button>}>
        {t('dialog.connectionFailed')}
      </Alert>
    );
  return null;
}

/** Waiting in the queue: the position (or "loading..."); once nobody answered in time, the unavailable text. */
function WaitScreen({ state, onClose, closing }: { state: ChatState; onClose: () => void; closing: boolean }) {
  const { t } = useTranslation('liveHelp');
  const position = state.chatDetails?.Position ?? null;
  if (!state.providerResponse)
    return (
      <Box sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center', textAlign: 'center', justifyContent: 'center', flex: 1 }}>
        <Typography role="alert">{t('dialog.wait.unavailable')}</Typography>
        <Button variant="contained" onClick={onClose} disabled={closing}>
          {t('dialog.leave')}
        </Button>
      </Box>
    );
  return (
    <Box sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center', textAlign: 'center', justifyContent: 'center', flex: 1 }}>
      <CircularProgress aria-hidden size={36} />
      <Typography>{t('dialog.wait.text')}</Typography>
      <Box role="status" aria-live="polite">
        <Box component="span" sx={visuallyHidden}>
          {`${t('dialog.wait.position')}: `}
        </Box>
        <Typography component="span" data-testid="queue-position" sx={{ fontSize: position === null ? '1rem' : '2.5rem', fontWeight: 700, color: 'primary.main', lineHeight: 1.2 }}>
          {position === null ? t('dialog.wait.loading') : position}
        </Typography>
      </Box>
    </Box>
  );
}

/** The file problem's words: too large (the spec's text, in red), refused by the server, or not sent. */
function fileProblemText(t: (key: string, options?: Record<string, unknown>) => string, problem: ChatFileProblem): string {
  if (problem.code === 'tooLarge') return t('chat:errors.fileTooLarge', { name: problem.name });
  if (problem.code === 'refused') return t('dialog.fileErrors.refused', { name: problem.name, reason: problem.message ?? '' });
  return t(`dialog.fileErrors.${problem.code}`, { name: problem.name });
}

/** The message box: a file (PDF or image), the text ("Your Message"; Enter sends, Shift+Enter a new line) and Send. */
function Composer({ state, store }: { state: ChatState; store: ChatStore }) {
  const { t } = useTranslation(['liveHelp', 'chat']);
  const [draft, setDraft] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const helpId = useId();
  const connected = state.status === 'open';
  const progress = state.attachmentProgress;

  const send = () => {
    if (store.sendText(draft)) setDraft('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const keyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', px: 1, pt: 1, pb: 1 }}>
      {state.sendingAttachment && (
        <Box role="status" sx={{ px: 1, pb: 1 }}>
          <Typography variant="body2">{t('dialog.sendingAttachment')}</Typography>
          <LinearProgress
            variant={progress && progress.total > 0 ? 'determinate' : 'indeterminate'}
            value={progress && progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0}
            aria-label={t('dialog.sendingAttachment')}
          />
        </Box>
      )}
      {state.fileProblem && (
        <Alert severity="error" variant="outlined" onClose={store.dismissFileProblem} closeText={t('dialog.dismiss')} sx={{ mb: 1, py: 0 }}>
          <Typography component="span" color="error" variant="body2" sx={{ fontWeight: 600 }}>
            {fileProblemText(t, state.fileProblem)}
          </Typography>
        </Alert>
      )}
      <Box component="form" onSubmit={submit} sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        <input
          ref={fileInput}
          type="file"
          accept={CHAT_FILE_ACCEPT}
          hidden
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void store.sendFile(file);
          }}
        />
        <IconButton aria-label={t('dialog.attach')} disabled={!connected || state.sendingAttachment} onClick={() => fileInput.current?.click()} sx={{ mb: 0.5 }}>
          <AttachFile />
        </IconButton>
        <TextField
          label={t('dialog.message')}
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            if (event.target.value.trim()) store.typing();
          }}
          onKeyDown={keyDown}
          disabled={!connected}
          multiline
          maxRows={4}
          size="small"
          fullWidth
          slotProps={{ htmlInput: { maxLength: CHAT_TEXT_MAX, 'aria-describedby': helpId } }}
        />
        <IconButton type="submit" color="primary" aria-label={t('dialog.send')} disabled={!connected || !draft.trim()} sx={{ mb: 0.5 }}>
          <Send />
        </IconButton>
      </Box>
      <Box id={helpId} sx={visuallyHidden}>
        {t('dialog.messageHelp')}
      </Box>
    </Box>
  );
}
