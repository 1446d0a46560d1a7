import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useConversations } from '../api/list-conversations';
import { TranscriptDialog } from './history-dialogs';
import { phoneTable, wideOnly } from './queue-section';
import { useConversationTime, useReasonText } from './transcript-view';

/** Rows shown before "Show more". */
const PAGE = 10;

/** "Past chats": the staff member's conversations, newest first (GET /api/v1/chat/conversations/), each opening its transcript. */
export function PastChatsSection() {
  const { t } = useTranslation(['chatConsole', 'chat']);
  const headingId = useId();
  const list = useConversations(null);
  const reasonText = useReasonText();
  const when = useConversationTime();
  const [shown, setShown] = useState(PAGE);
  const [viewing, setViewing] = useState<ChatConversation | null>(null);
  const conversations = (list.data ?? []).filter((c) => c.status !== 'queued');

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h2" sx={{ fontSize: '1.5rem', mb: 1.5 }}>
        {t('history.heading')}
      </Typography>
      {list.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      ) : list.isError ? (
        <Alert severity="error" action={<Button onClick={() => void list.refetch()}>{t('retry')}</Button>}>
          {t('history.loadFailed')}
        </Alert>
      ) : conversations.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
          <Typography>{t('history.empty')}</Typography>
        </Paper>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined" sx={phoneTable.container}>
            <Table aria-labelledby={headingId} size="small" sx={phoneTable.table}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('history.when')}</TableCell>
                  <TableCell>{t('history.patient')}</TableCell>
                  <TableCell sx={wideOnly}>{t('history.reason')}</TableCell>
                  <TableCell>{t('history.statusLabel')}</TableCell>
                  <TableCell align="right" sx={wideOnly}>
                    {t('history.messages')}
                  </TableCell>
                  <TableCell>
                    <Box component="span" sx={visuallyHidden}>
                      {t('queue.actions')}
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {conversations.slice(0, shown).map((c) => (
                  <TableRow key={c.conversation_id} hover>
                    <TableCell component="th" scope="row" sx={{ whiteSpace: { xs: 'normal', sm: 'nowrap' } }}>
                      {when(c)}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{c.patient_name}</TableCell>
                    <TableCell sx={{ ...wideOnly, maxWidth: 280, overflowWrap: 'anywhere' }}>{reasonText(c.reason, c.reason_for_visit)}</TableCell>
                    <TableCell>
                      <Chip size="small" variant={c.status === 'active' ? 'filled' : 'outlined'} color={c.status === 'active' ? 'primary' : 'default'} label={t(`history.status.${c.status}`)} />
                    </TableCell>
                    <TableCell align="right" sx={wideOnly}>
                      {c.message_count}
                    </TableCell>
                    <TableCell align="right">
                      <Button size="small" onClick={() => setViewing(c)} aria-label={t('history.viewOf', { name: c.patient_name, when: when(c) })}>
                        {t('history.view')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {conversations.length > shown && (
            <Button onClick={() => setShown((n) => n + PAGE)} sx={{ mt: 1 }}>
              {t('history.showMore')}
            </Button>
          )}
        </>
      )}
      <TranscriptDialog conversation={viewing} onClose={() => setViewing(null)} />
    </Box>
  );
}
