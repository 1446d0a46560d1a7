import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { SHARE_ROUTES } from '@healthbook/shared/sharing';
import { FormPage } from '../../../components/form-page';
import { shareSession } from '../share-session';

export type EndedVariant = 'expired' | 'revoked' | 'revokedQr';

/** Which ended page a path is: share-record-link-revoked, share-health-record-link-revoked (QR), share-record-link-expired. */
export function endedVariant(pathname: string): EndedVariant {
  const last = pathname.replace(/\/+$/, '').split('/').pop();
  if (last === SHARE_ROUTES.revokedQr) return 'revokedQr';
  if (last === SHARE_ROUTES.revoked) return 'revoked';
  return 'expired';
}

function EndedIcon({ variant }: { variant: EndedVariant }) {
  // Material "Link off" (revoked) and "Schedule" (expired), drawn inline.
  const path =
    variant === 'expired'
      ? 'M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2M12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8m.5-13H11v6l5.25 3.15.75-1.23-4.5-2.67z'
      : 'M17 7h-4v1.9h4c1.71 0 3.1 1.39 3.1 3.1 0 1.43-.98 2.63-2.31 2.98l1.46 1.46C20.88 15.61 22 13.95 22 12c0-2.76-2.24-5-5-5m-1 4h-2.19l2 2H16zM2 4.27l3.11 3.11C3.29 8.12 2 9.91 2 12c0 2.76 2.24 5 5 5h4v-1.9H7c-1.71 0-3.1-1.39-3.1-3.1 0-1.59 1.21-2.9 2.76-3.07L8.73 11H8v2h2.73L13 15.27V17h1.73l4.01 4L20 19.74 3.27 3z';
  return (
    <Box component="svg" viewBox="0 0 24 24" aria-hidden="true" sx={{ width: 48, height: 48, fill: 'currentColor', color: 'text.secondary', display: 'block', mb: 2 }}>
      <path d={path} />
    </Box>
  );
}

/**
 * A share that is over: revoked by the patient, or expired (also any link that is unknown or
 * malformed, so nothing says whether it ever existed). Calm words, nothing of what was shared.
 */
export default function ShareEndedPage() {
  const { t } = useTranslation('shareRecipient');
  const variant = endedVariant(useLocation().pathname);

  // Nothing of a share that is over stays in this browser.
  useEffect(() => shareSession.clear(), []);

  return (
    <FormPage pageTitle={t(`ended.${variant}.pageTitle`)} heading={t(`ended.${variant}.title`)} top={<EndedIcon variant={variant} />}>
      <Typography sx={{ mb: 2 }}>{t(`ended.${variant}.text`)}</Typography>
      <Typography color="text.secondary">{t(`ended.${variant}.next`)}</Typography>
    </FormPage>
  );
}
