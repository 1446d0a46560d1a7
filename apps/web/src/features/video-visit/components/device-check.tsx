import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import VideocamOff from '@mui/icons-material/VideocamOff';
import { useMicLevel, type LocalMedia } from '../hooks/use-local-media';
import { browserFamily, type MediaProblem } from '../lib/media-problem';
import { MediaVideo } from './media-video';

/**
 * Before the call: the camera's preview and the microphone's level, a choice of each among the
 * device's, and when the browser refused them, why and how to allow them. "Join" goes on with
 * the microphone at least (audio only without a camera).
 */
export function DeviceCheck({ media, joinLabel, onJoin }: { media: LocalMedia; joinLabel: string; onJoin: () => void }) {
  const { t } = useTranslation('videoVisit');
  const levelId = useId();
  const level = useMicLevel(media.stream, media.version);
  const started = useRef(false);
  const { start } = media;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);

  const hasVideo = (media.stream?.getVideoTracks().length ?? 0) > 0;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="device-check-title" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id="device-check-title" variant="h2" sx={{ mb: 1 }}>
        {t('check.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('check.intro')}
      </Typography>
      {media.status === 'asking' && (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
          <CircularProgress size={20} aria-hidden />
          <Typography>{t('check.asking')}</Typography>
        </Stack>
      )}
      {media.problem && <ProblemHelp problem={media.problem} onRetry={() => void media.start()} />}
      {media.status === 'ready' && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, alignItems: 'start' }}>
          <Box sx={{ position: 'relative', borderRadius: 2, overflow: 'hidden', bgcolor: 'grey.900', aspectRatio: '16 / 9' }}>
            {hasVideo ? (
              <MediaVideo stream={media.stream} muted mirrored label={t('check.preview')} version={media.version} />
            ) : (
              <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', color: 'grey.100', p: 2, textAlign: 'center' }} spacing={1}>
                <VideocamOff aria-hidden />
                <Typography>{t('check.noCamera')}</Typography>
              </Stack>
            )}
          </Box>
          <Stack spacing={2}>
            {media.videoProblem && (
              <Alert severity="warning">
                <AlertTitle>{t('check.audioOnlyTitle')}</AlertTitle>
                {t(`problem.${media.videoProblem}.camera`)}
              </Alert>
            )}
            {media.cameras.length > 0 && (
              <TextField select label={t('check.camera')} value={media.cameraId} onChange={(e) => void media.chooseCamera(e.target.value)} fullWidth>
                {media.cameras.map((d, i) => (
                  <MenuItem key={d.deviceId} value={d.deviceId}>
                    {d.label || t('check.cameraN', { n: i + 1 })}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {media.microphones.length > 0 && (
              <TextField select label={t('check.microphone')} value={media.microphoneId} onChange={(e) => void media.chooseMicrophone(e.target.value)} fullWidth>
                {media.microphones.map((d, i) => (
                  <MenuItem key={d.deviceId} value={d.deviceId}>
                    {d.label || t('check.microphoneN', { n: i + 1 })}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Box>
              <Typography id={levelId} variant="body2" sx={{ mb: 0.5 }}>
                {t('check.level')}
              </Typography>
              <LinearProgress variant="determinate" value={Math.round(level * 100)} aria-labelledby={levelId} sx={{ height: 10, borderRadius: 5 }} />
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {t('check.levelHint')}
              </Typography>
            </Box>
            <Button variant="contained" size="large" onClick={onJoin}>
              {joinLabel}
            </Button>
          </Stack>
        </Box>
      )}
    </Paper>
  );
}

/** Why the camera and microphone could not be used, and the steps to allow them in this browser. */
function ProblemHelp({ problem, onRetry }: { problem: MediaProblem; onRetry: () => void }) {
  const { t } = useTranslation('videoVisit');
  const family = browserFamily(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  return (
    <Alert severity="error" role="alert" action={<Button onClick={onRetry}>{t('check.retry')}</Button>} sx={{ mb: 2 }}>
      <AlertTitle>{t(`problem.${problem}.title`)}</AlertTitle>
      <Typography variant="body2">{t(`problem.${problem}.text`)}</Typography>
      {problem === 'denied' && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t(`allow.${family}`)}
        </Typography>
      )}
    </Alert>
  );
}
