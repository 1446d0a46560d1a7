import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Visit } from '@healthbook/shared/contracts/appointments';
import { HubPage } from '../../../components/hub-page';
import { useCurrentUser } from '../../../lib/auth';
import type { ChatSocketFactory } from '../../../lib/chat-socket';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useVisit } from '../../../lib/visit-query';
import { useVisitTranscript } from '../api/visit';
import { useLocalMedia } from '../hooks/use-local-media';
import { useVisitCall } from '../hooks/use-visit-call';
import { CallView } from './call-view';
import { DeviceCheck } from './device-check';
import { VisitNoteForm } from './visit-note-form';
import { ChatLines, VisitChat, lineOf } from './visit-chat';

/** The slot (availability_det_id) of ?slot=, or null. */
const slotParam = (value: string | null): number | null => (value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null);

/**
 * video-visit?slot=<availability_det_id> — the video visit of a telehealth appointment, for its
 * patient (or a full-access carer acting for them) and its provider: outside its window, when it
 * opens; inside, the device check, then the waiting room and the call; once ended, its length.
 */
export default function VideoVisitPage({ connect }: { connect: ChatSocketFactory }) {
  const [search] = useSearchParams();
  const { clientId } = useOrganizationContext();
  const slot = slotParam(search.get('slot'));
  if (slot === null) return <Navigate to={paths.notFound(clientId)} replace />;
  return <VisitLoader key={slot} slot={slot} connect={connect} />;
}

function VisitLoader({ slot, connect }: { slot: number; connect: ChatSocketFactory }) {
  const { t } = useTranslation('videoVisit');
  const { clientId } = useOrganizationContext();
  const visit = useVisit(slot);
  const provider = visit.data?.role === 'provider';
  const back = provider ? { to: paths.providerAppointments(clientId), label: t('backProvider') } : { to: paths.eventDetails(clientId, slot), label: t('backPatient') };
  const title = visit.data ? t('title', { name: provider ? visit.data.patient_name : visit.data.provider_name }) : t('pageTitle');
  return (
    <HubPage pageTitle={title} maxWidth={1280} back={back}>
      {visit.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('pageTitle')} />
        </Box>
      )}
      {visit.isError && (
        <Alert severity={visit.error instanceof ApiError && visit.error.status === 404 ? 'info' : 'error'}>
          {visit.error instanceof ApiError && visit.error.status === 404 ? t('notFound') : (applyServerErrors(visit.error, { fallback: '' }) ?? t('loadFailed'))}
        </Alert>
      )}
      {visit.data && <VisitBody visit={visit.data} connect={connect} />}
    </HubPage>
  );
}

function VisitBody({ visit, connect }: { visit: Visit; connect: ChatSocketFactory }) {
  const { t, i18n } = useTranslation('videoVisit');
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', userTimeZone());
  const [joined, setJoined] = useState(false);
  const [left, setLeft] = useState(false);
  const media = useLocalMedia();
  const call = useVisitCall(visit, media, joined && !left);
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  // Admitted or ended over the socket: the visit is read again (its chat, its end and length).
  const callStatus = call.status;
  useEffect(() => {
    if (callStatus === 'active' || callStatus === 'ended') void queryClient.invalidateQueries({ queryKey: queryKeys.appointments.visit(visit.availability_det_id) });
  }, [callStatus, queryClient, visit.availability_det_id]);

  if (visit.status === 'ended' || call.status === 'ended') return <Ended visit={visit} formatTime={format.time} />;
  if (visit.phase === 'early')
    return (
      <Alert severity="info">
        {t('opensAt', { time: format.dateTime(visit.opens_at), start: format.time(visit.start_time) })}
      </Alert>
    );
  if (visit.phase === 'over') return <Alert severity="info">{t('over', { time: format.dateTime(visit.closes_at) })}</Alert>;
  if (left)
    return (
      <Alert severity="info" action={
          <Button color="inherit" onClick={() => setLeft(false)}>
            {t('actions.rejoin')}
          </Button>
        }>
        {t('left', { time: format.time(call.closesAt) })}
      </Alert>
    );
  if (!joined) return <DeviceCheck media={media} joinLabel={visit.role === 'provider' ? t('actions.openRoom') : t('actions.join')} onJoin={() => setJoined(true)} />;
  const chat =
    visit.chat_conversation_id !== null && user ? (
      <VisitChat connect={connect} conversationId={visit.chat_conversation_id} userId={user.user_id} isPatient={visit.role === 'patient'} formatTime={format.time} />
    ) : undefined;
  return <CallView visit={visit} media={media} call={call} formatTime={format.time} onLeft={() => setLeft(true)} side={chat} />;
}

/** After the visit: when it ended and how long it lasted. */
function Ended({ visit, formatTime }: { visit: Visit; formatTime: (instant: string) => string }) {
  const { t } = useTranslation('videoVisit');
  const minutes = visit.duration_s === null ? null : Math.max(1, Math.round(visit.duration_s / 60));
  const transcript = useVisitTranscript(visit.chat_conversation_id);
  const lines = (transcript.data?.messages ?? []).map(lineOf);
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" component="section" aria-labelledby="visit-ended" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
        <Typography id="visit-ended" variant="h2" sx={{ mb: 1 }}>
          {t('ended.title')}
        </Typography>
        <Typography>
          {visit.ended_at ? t('ended.at', { time: formatTime(visit.ended_at) }) : t('ended.title')}
          {minutes !== null && ` ${t('ended.length', { count: minutes })}`}
        </Typography>
      </Paper>
      {visit.role === 'provider' && (
        <Paper variant="outlined" component="section" aria-labelledby="visit-note" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
          <Typography id="visit-note" variant="h2" sx={{ mb: 1 }}>
            {t('note.title')}
          </Typography>
          <VisitNoteForm visit={visit} />
        </Paper>
      )}
      {lines.some((l) => l.notice === null) && (
        <Paper variant="outlined" component="section" aria-labelledby="visit-transcript" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
          <Typography id="visit-transcript" variant="h2" sx={{ mb: 1.5 }}>
            {t('chat.transcript')}
          </Typography>
          <ChatLines lines={lines} formatTime={formatTime} />
        </Paper>
      )}
    </Stack>
  );
}
