import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CallEnd from '@mui/icons-material/CallEnd';
import Mic from '@mui/icons-material/Mic';
import MicOff from '@mui/icons-material/MicOff';
import MoreTime from '@mui/icons-material/MoreTime';
import NoteAdd from '@mui/icons-material/NoteAdd';
import PresentToAll from '@mui/icons-material/PresentToAll';
import Settings from '@mui/icons-material/Settings';
import SignalCellularAlt from '@mui/icons-material/SignalCellularAlt';
import StopScreenShare from '@mui/icons-material/StopScreenShare';
import Videocam from '@mui/icons-material/Videocam';
import VideocamOff from '@mui/icons-material/VideocamOff';
import type { Visit } from '@healthbook/shared/contracts/appointments';
import { VISIT_CLOSE } from '@healthbook/shared/visit-protocol';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { failureText } from '../../../lib/form-errors';
import type { LocalMedia } from '../hooks/use-local-media';
import type { VisitCall } from '../hooks/use-visit-call';
import { useVisitAction } from '../api/visit';
import { MediaVideo } from './media-video';
import { VisitNoteForm } from './visit-note-form';

const QUALITY_COLOR = { unknown: 'default', good: 'success', fair: 'warning', poor: 'error' } as const;

/**
 * The visit once joined: for the patient side the waiting room ("<provider> will let you in")
 * until admitted; for the provider, who is waiting and the button that lets them in; then the
 * other side's video with this side's own in a corner, what the other side turned off, the
 * connection's quality, and the controls (microphone, camera, devices, screen, and for the
 * provider extend and end).
 */
export function CallView({ visit, media, call, formatTime, onLeft, side }: { visit: Visit; media: LocalMedia; call: VisitCall; formatTime: (instant: string) => string; onLeft: () => void; side?: ReactNode }) {
  const { t } = useTranslation('videoVisit');
  const action = useVisitAction(visit.availability_det_id);
  const [failure, setFailure] = useState<string | null>(null);
  const [ending, setEnding] = useState(false);
  const [noting, setNoting] = useState(false);
  const [devicesAnchor, setDevicesAnchor] = useState<HTMLElement | null>(null);
  const provider = visit.role === 'provider';
  const other = provider ? visit.patient_name : visit.provider_name;
  const admitted = call.status === 'active';

  const act = async (name: 'start' | 'extend' | 'end') => {
    setFailure(null);
    try {
      await action.mutateAsync(name);
      if (name === 'end') onLeft();
    } catch (error) {
      setFailure(failureText(t(`failed.${name}`), error));
    }
  };

  const closed = closedText(call.closeCode, t);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';

  const stage = (() => {
    if (!admitted && !provider)
      return (
        <Waiting>
          <Typography variant="h2" component="p">
            {t('waiting.patient', { provider: visit.provider_name })}
          </Typography>
          <Typography color="grey.300">{t('waiting.patientHint', { time: formatTime(call.closesAt) })}</Typography>
        </Waiting>
      );
    if (!call.peerPresent)
      return (
        <Waiting>
          <Typography variant="h2" component="p">
            {admitted ? t('waiting.gone', { name: other }) : t('waiting.provider', { patient: visit.patient_name })}
          </Typography>
        </Waiting>
      );
    if (!admitted)
      return (
        <Waiting spinner={false}>
          <Typography variant="h2" component="p">
            {t('waiting.arrived', { patient: visit.patient_name })}
          </Typography>
          {call.peerActing && <Typography color="grey.300">{t('waiting.acting', { patient: visit.patient_name })}</Typography>}
          <Button variant="contained" size="large" onClick={() => void act('start')} disabled={action.isPending} sx={{ mt: 1 }}>
            {t('actions.admit')}
          </Button>
        </Waiting>
      );
    return (
      <>
        <MediaVideo stream={call.remoteStream} label={t('call.remoteVideo', { name: other })} fit={call.remoteMedia.screen ? 'contain' : 'cover'} />
        {!call.remoteMedia.video && (
          <Stack sx={{ position: 'absolute', inset: 0, alignItems: 'center', justifyContent: 'center', color: 'grey.100', bgcolor: 'grey.900' }} spacing={1}>
            <VideocamOff aria-hidden />
            <Typography>{t('call.remoteCameraOff', { name: other })}</Typography>
          </Stack>
        )}
        <Stack direction="row" spacing={1} sx={{ position: 'absolute', left: 12, top: 12 }}>
          <Chip size="small" label={other} sx={{ bgcolor: 'rgba(0,0,0,0.6)', color: 'common.white' }} />
          {!call.remoteMedia.audio && <Chip size="small" icon={<MicOff aria-hidden />} label={t('call.remoteMuted')} sx={{ bgcolor: 'rgba(0,0,0,0.6)', color: 'common.white', '& .MuiChip-icon': { color: 'inherit' } }} />}
          {call.remoteMedia.screen && <Chip size="small" label={t('call.remoteSharing')} sx={{ bgcolor: 'rgba(0,0,0,0.6)', color: 'common.white' }} />}
        </Stack>
        {call.peerState !== 'connected' && (
          <Stack direction="row" spacing={1} sx={{ position: 'absolute', bottom: 12, left: 12, color: 'common.white', alignItems: 'center' }}>
            <CircularProgress size={16} color="inherit" aria-hidden />
            <Typography variant="body2">{t(`peerState.${call.peerState === 'failed' || call.peerState === 'disconnected' ? 'reconnecting' : 'connecting'}`)}</Typography>
          </Stack>
        )}
      </>
    );
  })();

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: side ? 'minmax(0, 1fr) 360px' : '1fr' } }}>
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Chip size="small" variant="outlined" label={t(`status.${admitted ? 'active' : 'waiting'}`)} />
          {admitted && call.peerState === 'connected' && (
            <Chip size="small" icon={<SignalCellularAlt aria-hidden />} color={QUALITY_COLOR[call.quality]} label={t(`quality.${call.quality}`)} data-relayed={call.relayed || undefined} />
          )}
          {call.relayed && <Chip size="small" variant="outlined" label={t('call.relayed')} />}
          <Typography variant="body2" color="text.secondary">
            {t('call.until', { time: formatTime(call.closesAt) })}
          </Typography>
          {call.connection === 'reconnecting' && (
            <Typography variant="body2" color="warning.main" role="status">
              {t('call.socketReconnecting')}
            </Typography>
          )}
        </Stack>
        {closed && <Alert severity="info">{closed}</Alert>}
        {failure && (
          <Alert severity="error" onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        {call.audioOnlyFallback && <Alert severity="warning">{t('call.audioOnlyFallback')}</Alert>}
        <Box sx={{ position: 'relative', borderRadius: 3, overflow: 'hidden', bgcolor: 'grey.900', aspectRatio: { xs: '3 / 4', sm: '16 / 9' }, maxHeight: '70vh' }}>
          {stage}
          <Box sx={{ position: 'absolute', right: 12, bottom: 12, width: { xs: 96, sm: 180 }, aspectRatio: '4 / 3', borderRadius: 2, overflow: 'hidden', border: 2, borderColor: 'grey.700' }}>
            {call.cameraOff || (media.stream?.getVideoTracks().length ?? 0) === 0 ? (
              <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', bgcolor: 'grey.800', color: 'grey.100' }}>
                <VideocamOff fontSize="small" aria-label={t('call.selfCameraOff')} />
              </Stack>
            ) : (
              <MediaVideo stream={media.stream} muted mirrored label={t('call.selfVideo')} version={media.version} />
            )}
          </Box>
        </Box>
        <Paper variant="outlined" component="div" role="toolbar" aria-label={t('call.controls')} sx={{ borderRadius: 3, p: 1, display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
          <Toggle on={!call.muted} onLabel={t('controls.mute')} offLabel={t('controls.unmute')} onIcon={<Mic />} offIcon={<MicOff />} onClick={call.toggleMute} />
          <Toggle
            on={!call.cameraOff}
            onLabel={t('controls.cameraOff')}
            offLabel={t('controls.cameraOn')}
            onIcon={<Videocam />}
            offIcon={<VideocamOff />}
            onClick={call.toggleCamera}
            disabled={(media.stream?.getVideoTracks().length ?? 0) === 0}
          />
          <Tooltip title={t('controls.devices')}>
            <IconButton aria-label={t('controls.devices')} aria-haspopup="menu" onClick={(e) => setDevicesAnchor(e.currentTarget)}>
              <Settings />
            </IconButton>
          </Tooltip>
          <Menu anchorEl={devicesAnchor} open={devicesAnchor !== null} onClose={() => setDevicesAnchor(null)}>
            {media.cameras.length > 0 && <ListSubheader>{t('check.camera')}</ListSubheader>}
            {media.cameras.map((d, i) => (
              <MenuItem key={d.deviceId} selected={d.deviceId === media.cameraId} onClick={() => void media.chooseCamera(d.deviceId).then(() => setDevicesAnchor(null))}>
                {d.label || t('check.cameraN', { n: i + 1 })}
              </MenuItem>
            ))}
            <ListSubheader>{t('check.microphone')}</ListSubheader>
            {media.microphones.map((d, i) => (
              <MenuItem key={d.deviceId} selected={d.deviceId === media.microphoneId} onClick={() => void media.chooseMicrophone(d.deviceId).then(() => setDevicesAnchor(null))}>
                {d.label || t('check.microphoneN', { n: i + 1 })}
              </MenuItem>
            ))}
          </Menu>
          {canShare && admitted && (
            <Toggle
              on={!call.sharing}
              onLabel={t('controls.share')}
              offLabel={t('controls.stopShare')}
              onIcon={<PresentToAll />}
              offIcon={<StopScreenShare />}
              onClick={() => (call.sharing ? call.stopSharing() : void call.shareScreen().catch(() => setFailure(t('failed.share'))))}
            />
          )}
          {provider && admitted && (
            <Button startIcon={<MoreTime />} onClick={() => void act('extend')} disabled={action.isPending}>
              {t('actions.extend')}
            </Button>
          )}
          {provider && admitted && (
            <Button startIcon={<NoteAdd />} onClick={() => setNoting(true)}>
              {t('note.title')}
            </Button>
          )}
          {provider ? (
            <Button color="error" variant="contained" startIcon={<CallEnd />} onClick={() => setEnding(true)} disabled={action.isPending}>
              {t('actions.end')}
            </Button>
          ) : (
            <Button
              color="error"
              variant="contained"
              startIcon={<CallEnd />}
              onClick={() => {
                call.hangUp();
                onLeft();
              }}
            >
              {t('actions.leave')}
            </Button>
          )}
        </Paper>
      </Stack>
      {side}
      {provider && (
        <Dialog open={noting} onClose={() => setNoting(false)} aria-labelledby="visit-note-dialog" fullWidth maxWidth="md">
          <DialogTitle id="visit-note-dialog">{t('note.title')}</DialogTitle>
          <DialogContent>
            <VisitNoteForm visit={visit} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setNoting(false)}>{t('note.close')}</Button>
          </DialogActions>
        </Dialog>
      )}
      <ConfirmDialog
        open={ending}
        title={t('end.title')}
        confirmLabel={t('end.yes')}
        cancelLabel={t('end.no')}
        destructive
        onConfirm={() => {
          setEnding(false);
          void act('end');
        }}
        onCancel={() => setEnding(false)}
      >
        <DialogContentText>{t('end.question', { patient: visit.patient_name })}</DialogContentText>
      </ConfirmDialog>
    </Box>
  );
}

function Waiting({ children, spinner = true }: { children: ReactNode; spinner?: boolean }) {
  return (
    <Stack role="status" spacing={1.5} sx={{ position: 'absolute', inset: 0, alignItems: 'center', justifyContent: 'center', color: 'common.white', p: 3, pb: { xs: 14, sm: 3 }, textAlign: 'center' }}>
      {spinner && <CircularProgress color="inherit" size={28} aria-hidden />}
      {children}
    </Stack>
  );
}

/** A button that turns something on or off: its label says what a press does, aria-pressed what is on. */
function Toggle({ on, onLabel, offLabel, onIcon, offIcon, onClick, disabled }: { on: boolean; onLabel: string; offLabel: string; onIcon: ReactNode; offIcon: ReactNode; onClick: () => void; disabled?: boolean }) {
  const label = on ? onLabel : offLabel;
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={disabled} sx={on ? undefined : { bgcolor: 'error.main', color: 'error.contrastText', '&:hover': { bgcolor: 'error.dark' } }}>
          {on ? onIcon : offIcon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** Why the socket closed for good, in words (null while it is open or will reconnect). */
function closedText(code: number | null, t: (key: string) => string): string | null {
  switch (code) {
    case null:
      return null;
    case VISIT_CLOSE.replaced:
      return t('closed.replaced');
    case VISIT_CLOSE.ended:
      return t('closed.ended');
    case VISIT_CLOSE.session:
      return t('closed.session');
    case VISIT_CLOSE.notOpen:
      return t('closed.notOpen');
    default:
      return t('closed.forbidden');
  }
}
