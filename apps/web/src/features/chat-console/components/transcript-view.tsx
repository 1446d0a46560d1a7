import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useTranscript } from '../api/get-transcript';
import { endOf, lineOf } from '../console-state';
import { reasonLabel } from '../queue';
import { MessageList } from './message-list';

/** A reason in words, in the reader's language when it is one the catalogue offers. */
export function useReasonText() {
  const { t } = useTranslation(['chatConsole', 'chat']);
  return (reason: string | null | undefined, reasonForVisit: string) => {
    const label = reasonLabel(reason, reasonForVisit);
    return 'key' in label ? t(label.key) : label.text;
  };
}

/** When a conversation took place: its start (or its queueing, if nobody took it). */
export function useConversationTime() {
  const { i18n } = useTranslation();
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', userTimeZone());
  return (c: ChatConversation) => format.dateTime(c.started_at ?? c.queued_at);
}

/** One past conversation, read from GET /api/v1/chat/conversations/{id}/: its reason, its time and its messages. */
export function TranscriptView({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const transcript = useTranscript(conversationId);
  const reasonText = useReasonText();
  const when = useConversationTime();

  if (transcript.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (transcript.isError) {
    return (
      <Alert severity="error" action={<Button onClick={() => void transcript.refetch()}>{t('retry')}</Button>}>
        {t('history.loadFailed')}
      </Alert>
    );
  }
  const { conversation, messages } = transcript.data;
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 0.5 }}>
        {t('history.summary', {
          when: when(conversation),
          reason: reasonText(conversation.reason, conversation.reason_for_visit),
          providerType: t(`chat:providerTypes.${conversation.provider_type}`),
        })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t(`history.status.${conversation.status}`)}
      </Typography>
      <MessageList
        lines={messages.map(lineOf)}
        end={endOf(conversation)}
        label={t('chats.messagesWith', { name: conversation.patient_name })}
        maxHeight="55vh"
      />
    </Box>
  );
}
