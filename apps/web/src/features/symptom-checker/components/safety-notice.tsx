import { Trans, useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';

/** Always at the top: not for medical emergencies (with the organisation's number), and experimental content (as the terms say). */
export function SafetyNotice({ emergencyNumber }: { emergencyNumber: string }) {
  const { t } = useTranslation('symptom-checker');
  return (
    <Alert severity="warning" role="note" aria-label={t('notice.label')} sx={{ mb: 3, borderRadius: 2, '& .MuiAlert-message': { width: '100%' } }}>
      <Typography sx={{ fontWeight: 600 }}>
        <Trans
          t={t}
          i18nKey="notice.emergency"
          values={{ number: emergencyNumber }}
          components={{ call: <Link href={`tel:${emergencyNumber}`} sx={{ fontWeight: 700 }} /> }}
        />
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {t('notice.experimental')}
      </Typography>
    </Alert>
  );
}
