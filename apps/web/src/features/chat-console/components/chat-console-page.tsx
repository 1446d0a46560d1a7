import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FlashMessage } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useCurrentUser } from '../../../lib/auth';
import { useOrganizationContext } from '../../../lib/organization-context';
import { chatQueuesOf } from '../../../lib/roles';
import type { ChatSocketFactory } from '../../../lib/chat-socket';
import { useChatConsole } from '../hooks/use-chat-console';
import { ChatPanes } from './chat-panes';
import { ConnectionClosed, ConnectionStatus } from './connection-status';
import { PastChatsSection } from './past-chats-section';
import { QueueSection } from './queue-section';

/**
 * /provider/chat — the chat console of providers and peer coaches: the patients waiting in the
 * queues they serve (live), the chats they hold (several at once, one pane each), and their
 * past chats. One staff socket carries it all; its state is shown and announced.
 */
export function ChatConsolePage({ connect }: { connect: ChatSocketFactory }) {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const { clientId } = useOrganizationContext();
  const user = useCurrentUser();
  if (!user) throw new Error('A signed-in page rendered without a user');
  const chat = useChatConsole({ connect, user, clientId });
  // A chat taken: said to screen readers, and its message field takes the focus.
  const [taken, setTaken] = useState<{ conversationId: number; text: string } | null>(null);
  const connected = chat.connection.status === 'open';
  const notice = chat.state.notice;
  const chatsHeading = 'chat-console-open-chats';

  return (
    <HubPage pageTitle={t('pageTitle')} title={null} maxWidth={1200}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}>
        <Typography variant="h1">{t('pageTitle')}</Typography>
        <ConnectionStatus connection={chat.connection} />
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('intro')}
      </Typography>
      <ConnectionClosed connection={chat.connection} onReconnect={chat.reconnect} />

      <QueueSection
        queues={chatQueuesOf(user)}
        onTaken={(conversation) => {
          chat.taken(conversation);
          setTaken({ conversationId: conversation.conversation_id, text: t('queue.taken', { name: conversation.patient_name }) });
        }}
      />
      <Box role="status" sx={visuallyHidden}>
        {taken?.text}
      </Box>

      <Box component="section" aria-labelledby={chatsHeading} sx={{ mb: 5 }}>
        <Typography id={chatsHeading} variant="h2" sx={{ fontSize: '1.5rem', mb: 1.5 }}>
          {t('chats.heading')}
        </Typography>
        <ChatPanes chat={chat} connected={connected} focus={taken?.conversationId ?? null} />
      </Box>

      <PastChatsSection />
      <FlashMessage message={notice ? { severity: 'error', text: notice } : null} onClose={chat.dismissNotice} />
    </HubPage>
  );
}
