import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import DialogContentText from '@mui/material/DialogContentText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import History from '@mui/icons-material/History';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { failureText } from '../../../lib/form-errors';
import { useEndChat } from '../api/end-chat';
import type { ChatPane } from '../console-state';
import type { ChatConsole } from '../hooks/use-chat-console';
import { Composer } from './composer';
import { PreviousChatsDialog } from './history-dialogs';
import { MessageList } from './message-list';
import { useReasonText } from './transcript-view';

/** How long "… is typing" stays after the patient's last typing notice. */
const TYPING_SHOWN_MS = 6_000;

const tabId = (id: number) => `chat-tab-${id}`;
const panelId = (id: number) => `chat-panel-${id}`;

/** The staff member's open chats: a tab per conversation (new messages counted on the tabs not shown), one pane each. */
export function ChatPanes({ chat, connected, focus }: { chat: ChatConsole; connected: boolean; focus: number | null }) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const { panes } = chat.state;
  const selected = panes.find((p) => p.conversationId === chat.state.selected) ?? panes[0] ?? null;

  if (!selected) {
    return (
      <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
        <Typography>{t('chats.empty')}</Typography>
      </Paper>
    );
  }
  return (
    <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
      <Tabs
        value={selected.conversationId}
        onChange={(_e, value: number) => chat.select(value)}
        aria-label={t('chats.tabs')}
        variant="scrollable"
        scrollButtons="auto"
        // On a phone too: the arrows say that more chats are open than the tabs shown.
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {panes.map((pane) => (
          <Tab
            key={pane.conversationId}
            value={pane.conversationId}
            id={tabId(pane.conversationId)}
            aria-controls={panelId(pane.conversationId)}
            sx={{ textTransform: 'none' }}
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                <span>
                  {pane.patientName || t('chats.unknownPatient')}
                  {pane.status === 'ended' ? ` (${t('chats.ended')})` : ''}
                </span>
                <UnreadCount count={pane.unread} />
              </Box>
            }
            aria-label={[
              pane.patientName || t('chats.unknownPatient'),
              pane.status === 'ended' ? t('chats.ended') : null,
              pane.unread ? t('chats.unread', { count: pane.unread }) : null,
            ]
              .filter(Boolean)
              .join(', ')}
          />
        ))}
      </Tabs>
      {panes.map((pane) => (
        <Box
          key={pane.conversationId}
          role="tabpanel"
          id={panelId(pane.conversationId)}
          aria-labelledby={tabId(pane.conversationId)}
          hidden={pane.conversationId !== selected.conversationId}
          sx={{ p: { xs: 1.5, sm: 2.5 } }}
        >
          <ChatPaneView pane={pane} chat={chat} connected={connected} focus={focus === pane.conversationId} />
        </Box>
      ))}
    </Paper>
  );
}

/** New messages on a tab not shown: their number (99+ past 99), nothing at all when there are none. */
function UnreadCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Box
      component="span"
      data-testid="unread-count"
      sx={{ minWidth: 20, height: 20, px: 0.75, borderRadius: 10, bgcolor: 'error.main', color: 'error.contrastText', fontSize: '0.75rem', fontWeight: 700, lineHeight: '20px', textAlign: 'center' }}
    >
      {count > 99 ? '99+' : count}
    </Box>
  );
}

function ChatPaneView({ pane, chat, connected, focus }: { pane: ChatPane; chat: ChatConsole; connected: boolean; focus: boolean }) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const reasonText = useReasonText();
  const end = useEndChat();
  const [confirming, setConfirming] = useState(false);
  const [previous, setPrevious] = useState(false);
  const [endError, setEndError] = useState<string | null>(null);
  const name = pane.patientName || t('chats.unknownPatient');
  const typing = useTyping(pane.typingAt);
  const active = pane.status === 'active';
  // Just taken: straight to writing.
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus) input.current?.focus();
  }, [focus]);

  const confirmEnd = async () => {
    setConfirming(false);
    setEndError(null);
    try {
      const conversation = await end.mutateAsync(pane.conversationId);
      chat.endedByMe(pane.conversationId, conversation.ended_at ?? new Date().toISOString());
    } catch (error) {
      setEndError(failureText(t('chats.endFailed'), error));
    }
  };

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, mb: 1.5 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h3" sx={{ fontSize: '1.25rem', fontWeight: 600, overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('chats.reason', { reason: reasonText(pane.reason, pane.reasonForVisit) })}
          </Typography>
          {pane.providerType && <Chip size="small" variant="outlined" label={t(`chat:providerTypes.${pane.providerType}`)} sx={{ mt: 0.5 }} />}
        </Box>
        {/* On a phone the buttons wrap rather than push the page wider than the screen. */}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexShrink: 0, flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<History aria-hidden />} onClick={() => setPrevious(true)} disabled={pane.patientId === null}>
            {t('chats.previous')}
          </Button>
          {active ? (
            <Button variant="contained" color="error" onClick={() => setConfirming(true)} disabled={end.isPending}>
              {t('chats.end')}
            </Button>
          ) : (
            <Button variant="outlined" onClick={() => chat.close(pane.conversationId)} aria-label={t('chats.closeOf', { name })}>
              {t('chats.close')}
            </Button>
          )}
        </Stack>
      </Stack>
      {endError && (
        <Alert severity="error" onClose={() => setEndError(null)} sx={{ mb: 1.5 }}>
          {endError}
        </Alert>
      )}
      <MessageList lines={pane.lines} end={pane.end} label={t('chats.messagesWith', { name })} live typing={active && typing ? name : null} />
      <Box sx={{ mt: 1.5 }}>
        {active ? (
          <Composer
            inputRef={input}
            connected={connected}
            sending={pane.sending}
            onSend={(text) => chat.sendText(pane.conversationId, text)}
            onFile={(file) => chat.sendFile(pane.conversationId, file)}
            onTyping={() => chat.typing(pane.conversationId)}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('chats.readOnly')}
          </Typography>
        )}
      </Box>
      <ConfirmDialog
        open={confirming}
        title={t('chats.endTitle')}
        onConfirm={() => void confirmEnd()}
        onCancel={() => setConfirming(false)}
        confirmLabel={t('chats.endConfirm')}
        cancelLabel={t('chats.keepChatting')}
        destructive
      >
        <DialogContentText>{t('chats.endQuestion', { name })}</DialogContentText>
      </ConfirmDialog>
      <PreviousChatsDialog open={previous} patientId={pane.patientId} patientName={name} currentId={pane.conversationId} onClose={() => setPrevious(false)} />
    </>
  );
}

/** Whether a typing notice at `at` (ms) is still recent; it fades by itself. */
function useTyping(at: number | null): boolean {
  // The notice that has faded (a newer one shows again).
  const [faded, setFaded] = useState<number | null>(null);
  useEffect(() => {
    if (at === null) return;
    const timer = setTimeout(() => setFaded(at), Math.max(0, at + TYPING_SHOWN_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [at]);
  return at !== null && faded !== at;
}
