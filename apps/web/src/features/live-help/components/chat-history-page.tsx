import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useConversations } from '../api/conversations';
import { CHAT_STATUS_COLORS, chatDateFormat } from './chat-text';
import { TermList } from '../../../components/term-list';

/** peer-coaching/history: the patient's chats, newest first (date, with whom, the reason, the status); each opens its transcript. */
export default function ChatHistoryPage() {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation(['liveHelp', 'chat']);
  const conversations = useConversations();

  return (
    <HubPage pageTitle={t('history.pageTitle')} intro={t('history.intro')} back={{ to: paths.peerCoaching(clientId), label: t('history.back') }}>
      {conversations.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('history.loading')} />
        </Box>
      )}
      {conversations.isError && (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void conversations.refetch()}>{t('history.retry')}</Button>}>
          {t('history.loadFailed')}
        </Alert>
      )}
      {conversations.data && conversations.data.length === 0 && (
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, borderRadius: 3, textAlign: 'center' }}>
          <Typography sx={{ mb: 2 }}>{t('history.empty')}</Typography>
          <Button component={RouterLink} to={paths.peerCoaching(clientId)} variant="contained">
            {t('history.start')}
          </Button>
        </Paper>
      )}
      {conversations.data && conversations.data.length > 0 && (
        <Box component="ul" aria-label={t('history.pageTitle')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {conversations.data.map((c) => (
            <ConversationRow key={c.conversation_id} conversation={c} />
          ))}
        </Box>
      )}
    </HubPage>
  );
}

function ConversationRow({ conversation: c }: { conversation: ChatConversation }) {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation(['liveHelp', 'chat']);
  const date = chatDateFormat(i18n.resolvedLanguage ?? 'en').format(new Date(c.started_at ?? c.queued_at));
  const providerType = t(`chat:providerTypes.${c.provider_type}`);
  const rows: Array<[string, string]> = [
    [t('history.provider'), c.provider_name ? `${c.provider_name}, ${providerType}` : `${t('history.nobody')} (${providerType})`],
    [t('history.reason'), t(`chat:reasons.${c.reason}`, { defaultValue: c.reason_for_visit })],
  ];
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Link component={RouterLink} to={paths.chatTranscript(clientId, c.conversation_id)} aria-label={t('history.open', { date })} sx={{ fontWeight: 600 }}>
          {date}
        </Link>
        <Chip size="small" color={CHAT_STATUS_COLORS[c.status]} label={t(`history.statuses.${c.status}`)} sx={{ fontWeight: 600 }} />
      </Box>
      <TermList terms={rows.map(([label, value]) => ({ key: label, label, value }))} sx={{ mt: 1 }} />
    </Paper>
  );
}
