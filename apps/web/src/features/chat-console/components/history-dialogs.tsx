import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { useConversations } from '../api/list-conversations';
import { TranscriptView, useConversationTime, useReasonText } from './transcript-view';

/** One past conversation in a dialog (from the "Past chats" list). */
export function TranscriptDialog({ conversation, onClose }: { conversation: ChatConversation | null; onClose: () => void }) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const titleId = useId();
  const [shown, setShown] = useState(conversation);
  // Kept while the dialog fades out.
  if (conversation && conversation !== shown) setShown(conversation);
  return (
    <Dialog open={conversation !== null} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{shown ? t('history.transcriptTitle', { name: shown.patient_name }) : ''}</DialogTitle>
      <DialogContent>{shown && <TranscriptView conversationId={shown.conversation_id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('history.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * "Previous chats": the patient's past chats with this staff member (GET
 * /api/v1/chat/conversations/?patient=ID, the open one left out), each opening its transcript
 * in the same dialog, with a way back to the list.
 */
export function PreviousChatsDialog({
  open,
  patientId,
  patientName,
  currentId,
  onClose,
}: {
  open: boolean;
  patientId: number | null;
  patientName: string;
  currentId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const titleId = useId();
  const list = useConversations(patientId, open && patientId !== null);
  const [viewing, setViewing] = useState<ChatConversation | null>(null);
  const reasonText = useReasonText();
  const when = useConversationTime();
  const earlier = (list.data ?? []).filter((c) => c.conversation_id !== currentId);
  const close = () => {
    setViewing(null);
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{viewing ? t('history.transcriptOf', { name: patientName, when: when(viewing) }) : t('history.previousTitle', { name: patientName })}</DialogTitle>
      <DialogContent>
        {viewing ? (
          <>
            <Button startIcon={<ArrowBack aria-hidden />} onClick={() => setViewing(null)} sx={{ mb: 1 }}>
              {t('history.back')}
            </Button>
            <TranscriptView conversationId={viewing.conversation_id} />
          </>
        ) : list.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress aria-label={t('loading')} />
          </Box>
        ) : list.isError ? (
          <Alert severity="error" action={<Button onClick={() => void list.refetch()}>{t('retry')}</Button>}>
            {t('history.loadFailed')}
          </Alert>
        ) : earlier.length === 0 ? (
          <Typography>{t('history.previousEmpty', { name: patientName })}</Typography>
        ) : (
          <List aria-label={t('history.previousTitle', { name: patientName })}>
            {earlier.map((c) => (
              <ListItem
                key={c.conversation_id}
                divider
                secondaryAction={
                  <Button size="small" onClick={() => setViewing(c)} aria-label={t('history.viewOf', { name: c.patient_name, when: when(c) })}>
                    {t('history.view')}
                  </Button>
                }
                sx={{ pr: 12 }}
              >
                <ListItemText
                  primary={when(c)}
                  secondary={`${reasonText(c.reason, c.reason_for_visit)} · ${t('history.messageCount', { count: c.message_count })}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('history.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
