import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Forum from '@mui/icons-material/Forum';
import { useOrganizationContext } from '../../../../lib/organization-context';
import { paths } from '../../../../lib/paths';
import { useRecordAccess } from '../../../../lib/record-access';
import { useChatState } from '../../chat-store';
import { openChatDialog } from '../chat-dialog';

/** Dashboard widget (Live Help): start a chat with a peer coach or a provider; while one is open, a way back to it. */
export default function LiveHelpWidget() {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('liveHelp');
  const chat = useChatState();
  const headingId = useId();
  const inProgress = chat.chatDetails !== null && !chat.ended;
  // Starting a chat is offered only to whoever may chat for the record open (lib/record-access.ts).
  const { canChat } = useRecordAccess();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('widget.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {inProgress ? t('widget.inProgress') : t('widget.text')}
      </Typography>
      <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        {inProgress ? (
          <Button variant="contained" startIcon={<Forum />} onClick={() => openChatDialog()}>
            {t('widget.open')}
          </Button>
        ) : (
          canChat && (
            <Button component={RouterLink} to={paths.peerCoaching(clientId)} variant="outlined" startIcon={<Forum />}>
              {t('widget.start')}
            </Button>
          )
        )}
        <Button component={RouterLink} to={paths.chatHistory(clientId)}>
          {t('widget.history')}
        </Button>
      </Stack>
    </Paper>
  );
}
