import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ChatProviderType } from '@healthbook/shared/chat';
import type { QueueEntry } from '@healthbook/shared/chat-protocol';
import type { ChatConversation, TakeChatBody } from '@healthbook/shared/contracts/chat';
import { visuallyHidden } from '../../../components/visually-hidden';
import { ApiError } from '../../../lib/api-client';
import { failureText } from '../../../lib/form-errors';
import { useQueue } from '../api/get-queue';
import { useTakeChat } from '../api/take-chat';
import { sortQueue, waitedSince, waitingText } from '../queue';
import { useReasonText } from './transcript-view';

/** Columns a phone leaves out (the table scrolls sideways otherwise). */
export const wideOnly = { display: { xs: 'none', md: 'table-cell' } } as const;

/**
 * The console's tables on a phone: narrower cell padding, so that what is left fits 390 px. The
 * container is positioned: a visually hidden header (position absolute) then stays inside it
 * instead of widening the page.
 */
export const phoneTable = {
  container: { borderRadius: 3, position: 'relative' },
  table: { '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } },
} as const;

/** The waiting time of one patient, renewed every second (only this cell draws again). */
function WaitingTime({ queuedAt }: { queuedAt: string }) {
  const { t } = useTranslation('chatConsole');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const { key, values } = waitingText(waitedSince(queuedAt, now));
  return <time dateTime={queuedAt}>{t(key, values)}</time>;
}

export interface QueueSectionProps {
  /** The queues this staff member serves (a choice of queue for "Take next patient" when more than one). */
  queues: ChatProviderType[];
  /** A chat taken: its pane opens. */
  onTaken: (conversation: ChatConversation) => void;
}

/**
 * The waiting patients (GET /api/v1/chat/queue/, then the socket's `queue` events): name, reason
 * in words, provider type, the waiting time ticking, the position; "Take next patient" and a
 * "Take" per row. Someone quicker (409) or nobody left (404) is said plainly and the list is
 * read again.
 */
export function QueueSection({ queues, onTaken }: QueueSectionProps) {
  const { t, i18n } = useTranslation(['chatConsole', 'chat']);
  const headingId = useId();
  const queue = useQueue(i18n.resolvedLanguage ?? 'en');
  const take = useTakeChat();
  const reasonText = useReasonText();
  const [from, setFrom] = useState<ChatProviderType | 'any'>('any');
  const [problem, setProblem] = useState<string | null>(null);
  const entries = sortQueue(queue.data ?? []);

  const takeChat = async (body: TakeChatBody) => {
    setProblem(null);
    try {
      onTaken(await take.mutateAsync(body));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setProblem(t('queue.chatTaken'));
      else if (error instanceof ApiError && error.status === 404) setProblem(t('queue.queueEmpty'));
      else setProblem(failureText(t('queue.takeFailed'), error));
    }
  };
  const takeButton = (entry: QueueEntry) => (
    <Button
      size="small"
      variant="outlined"
      disabled={take.isPending}
      onClick={() => void takeChat({ conversation_id: entry.conversation_id })}
      aria-label={t('queue.takeOf', { name: entry.patient_name })}
    >
      {t('queue.take')}
    </Button>
  );

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 5 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1.5 }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: '1.5rem' }}>
          {t('queue.heading')}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {queues.length > 1 && (
            <TextField select size="small" label={t('queue.from')} value={from} onChange={(e) => setFrom(e.target.value as ChatProviderType | 'any')} sx={{ minWidth: 180 }}>
              <MenuItem value="any">{t('queue.anyQueue')}</MenuItem>
              {queues.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`chat:providerTypes.${type}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button
            variant="contained"
            disabled={take.isPending || entries.length === 0}
            onClick={() => void takeChat(from === 'any' ? {} : { provider_type: from })}
          >
            {t('queue.takeNext')}
          </Button>
        </Stack>
      </Stack>

      {problem && (
        <Alert severity="warning" onClose={() => setProblem(null)} sx={{ mb: 1.5 }}>
          {problem}
        </Alert>
      )}
      {queue.isError && (
        <Alert severity="error" action={<Button onClick={() => void queue.refetch()}>{t('retry')}</Button>} sx={{ mb: 1.5 }}>
          {t('queue.loadFailed')}
        </Alert>
      )}
      {queue.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      ) : (
        <>
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('queue.count', { count: entries.length })}
          </Typography>
          {entries.length === 0 ? (
            <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
              <Typography>{t('queue.empty')}</Typography>
            </Paper>
          ) : (
            <TableContainer component={Paper} variant="outlined" sx={phoneTable.container}>
              <Table aria-labelledby={headingId} size="small" sx={phoneTable.table}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('queue.patient')}</TableCell>
                    <TableCell>{t('queue.reason')}</TableCell>
                    <TableCell sx={wideOnly}>{t('queue.providerType')}</TableCell>
                    <TableCell>{t('queue.waiting')}</TableCell>
                    <TableCell align="right" sx={wideOnly}>
                      {t('queue.position')}
                    </TableCell>
                    <TableCell>
                      <Box component="span" sx={visuallyHidden}>
                        {t('queue.actions')}
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {entries.map((entry) => (
                    <TableRow key={entry.conversation_id} hover>
                      <TableCell component="th" scope="row" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                        {entry.patient_name}
                      </TableCell>
                      <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{reasonText(null, entry.reason_for_visit)}</TableCell>
                      <TableCell sx={wideOnly}>{t(`chat:providerTypes.${entry.provider_type}`)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        <WaitingTime queuedAt={entry.queued_at} />
                      </TableCell>
                      <TableCell align="right" sx={wideOnly}>
                        {entry.position}
                      </TableCell>
                      <TableCell align="right">{takeButton(entry)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
    </Box>
  );
}
