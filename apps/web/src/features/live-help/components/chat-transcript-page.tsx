import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useConversation } from '../api/conversations';
import type { ChatMessage } from '../chat-store';
import { ChatMessageList } from './chat-message-list';
import { CHAT_STATUS_COLORS, chatDateFormat } from './chat-text';

/** peer-coaching/history/:id: a past chat, read-only; its files can be downloaded and saved to the Document Center. */
export default function ChatTranscriptPage() {
  const { org, clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation(['liveHelp', 'chat']);
  const id = Number(useParams().id);
  const transcript = useConversation(id);
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  const back = { to: paths.chatHistory(clientId), label: t('transcript.back') };
  const data = transcript.data;

  if (!data)
    return (
      <HubPage pageTitle={t('history.pageTitle')} back={back}>
        {transcript.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
            <CircularProgress aria-label={t('transcript.loading')} />
          </Box>
        ) : transcript.error instanceof ApiError && transcript.error.status === 404 ? (
          <Alert severity="warning">{t('transcript.notFound')}</Alert>
        ) : (
          <Alert severity="error" action={<Button color="inherit" onClick={() => void transcript.refetch()}>{t('transcript.retry')}</Button>}>
            {t('transcript.loadFailed')}
          </Alert>
        )}
      </HubPage>
    );

  const c = data.conversation;
  const date = chatDateFormat(i18n.resolvedLanguage ?? 'en').format(new Date(c.started_at ?? c.queued_at));
  const providerType = t(`chat:providerTypes.${c.provider_type}`);
  const reason = t(`chat:reasons.${c.reason}`, { defaultValue: c.reason_for_visit });
  const messages: ChatMessage[] = data.messages.map((m) => ({
    key: `m${m.id}`,
    id: m.id,
    content: m.Message,
    me: m.me,
    contentType: m.contentType,
    file: m.file,
    kind: m.kind,
    clientMessageId: m.clientMessageId,
    senderName: m.SenderName,
    sentAt: m.sentAt,
    error: null,
  }));
  const title = t('transcript.pageTitle', { date });

  return (
    <HubPage pageTitle={title} title={title} back={back} maxWidth={760}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
          {c.provider_name ? t('transcript.details', { name: c.provider_name, providerType, reason }) : t('transcript.detailsNobody', { providerType, reason })}
        </Typography>
        <Chip size="small" color={CHAT_STATUS_COLORS[c.status]} label={t(`history.statuses.${c.status}`)} sx={{ fontWeight: 600 }} />
      </Box>
      <Paper variant="outlined" sx={{ borderRadius: 3, py: 1 }}>
        {messages.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('transcript.empty')}
          </Typography>
        ) : (
          <ChatMessageList
            messages={messages}
            label={t('transcript.messages')}
            canSave={features.status('document-center') === 'active'}
            greeting={c.provider_name ? { patient: c.patient_name, provider: c.provider_name, providerType: c.provider_type } : null}
          />
        )}
      </Paper>
    </HubPage>
  );
}
