import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { ConfirmIdentityDialog } from '../../../components/confirm-identity-dialog';
import { clearLocalData } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { canProveWithCode, type IdentityProof } from '../../../lib/reauth';
import { useCloseAccount } from '../api/close-account';
import { useClosingPreview } from '../api/get-closing-preview';

/** What closing erases, in the order the page lists it (account:privacy.erased.*). */
const ERASED = ['records', 'documents', 'insurance', 'journal', 'calendar', 'surveys', 'chats', 'shares', 'care', 'links', 'account'] as const;

/**
 * How many rows of what is erased the server counted (by the erasure's own plan: its tables), shown
 * beside each item (account:privacy.counts.*).
 */
const COUNTED: Partial<Record<(typeof ERASED)[number], ReadonlyArray<readonly [count: string, table: string]>>> = {
  records: [['records', 'health_records']],
  documents: [['documents', 'documents']],
  insurance: [['insurance', 'insurance_cards']],
  journal: [['journal', 'journal_entries']],
  calendar: [
    ['calendar', 'calendar_events'],
    ['reminders', 'reminders'],
  ],
  surveys: [['surveys', 'survey_responses']],
  chats: [
    ['chats', 'chat_conversations'],
    ['messages', 'chat_messages'],
  ],
  shares: [['shares', 'shares']],
};

/**
 * Privacy → Close my account (issue 25 §4): the exports first, exactly what is erased and what
 * is kept (and why), the family members erased with the account, then the password (or a code)
 * again. The account is signed out everywhere; signing in again within the grace period keeps it.
 */
export function PrivacyTab({ user, clientId }: { user: UserDto; clientId: string }) {
  const { t, i18n } = useTranslation('account');
  const navigate = useNavigate();
  const preview = useClosingPreview();
  const closeAccount = useCloseAccount();
  const formatDate = (iso: string) => new Intl.DateTimeFormat(i18n.language === 'el' ? 'el-GR' : 'en-GB', { dateStyle: 'long' }).format(new Date(iso));
  const [confirming, setConfirming] = useState(false);
  const data = preview.data;

  const close = async (proof: IdentityProof) => {
    // A refused password (or any failure) stays in the dialog, which shows the server's words.
    const started = await closeAccount.mutateAsync(proof);
    setConfirming(false);
    // Every session of the account has ended on the server: this device forgets it too.
    clearLocalData();
    await navigate(paths.login(clientId), { replace: true, state: { notice: t('privacy.closed', { date: formatDate(started.erase_after), days: data?.grace_days ?? 14 }) } });
  };

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography variant="h2">{t('profile.tabs.privacy')}</Typography>
      <Typography>
        {t('privacy.intro')}{' '}
        <Link component={RouterLink} to={paths.privacy(clientId)}>
          {t('privacy.policy')}
        </Link>
      </Typography>

      <Box component="section" aria-labelledby="close-account-heading" sx={{ display: 'grid', gap: 2.5 }}>
        <Typography variant="h3" id="close-account-heading" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
          {t('privacy.closeTitle')}
        </Typography>
        {preview.isPending && <Skeleton variant="rounded" height={120} />}
        {preview.isError && <Alert severity="error">{t('privacy.loadError')}</Alert>}
        {data && !data.can_close && <Alert severity="info">{t('privacy.staff')}</Alert>}
        {data?.can_close && (
          <>
            <Paper variant="outlined" sx={{ p: 2, borderRadius: 2, display: 'grid', gap: 1.5 }}>
              <Typography variant="h4" sx={{ fontSize: '1.05rem', fontWeight: 600 }}>
                {t('privacy.exportTitle')}
              </Typography>
              <Typography color="text.secondary">{t('privacy.exportText')}</Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
                <Button component={RouterLink} to={paths.recordTransfer(clientId)} variant="outlined" startIcon={<DownloadIcon aria-hidden />}>
                  {t('privacy.exportFhir')}
                </Button>
                <Button component={RouterLink} to={paths.healthRecords(clientId)} variant="outlined" startIcon={<DownloadIcon aria-hidden />}>
                  {t('privacy.exportPdf')}
                </Button>
              </Stack>
            </Paper>

            <Box>
              <Typography variant="h4" sx={{ fontSize: '1.05rem', fontWeight: 600, mb: 1 }}>
                {t('privacy.erasedTitle')}
              </Typography>
              <Box component="ul" aria-label={t('privacy.erasedTitle')} sx={{ m: 0, pl: 3, display: 'grid', gap: 0.5 }}>
                {ERASED.map((key) => {
                  const counted = COUNTED[key]?.map(([count, table]) => t(`privacy.counts.${count}`, { count: data.erases.rows[table] ?? 0 }));
                  return (
                    <li key={key}>
                      <Typography>
                        {t(`privacy.erased.${key}`)}
                        {counted && <Box component="span" sx={{ color: 'text.secondary' }}>{` (${counted.join(', ')})`}</Box>}
                      </Typography>
                    </li>
                  );
                })}
                <li>
                  <Typography>{t('privacy.counts.files', { count: data.erases.files })}</Typography>
                </li>
                {data.upcoming_appointments > 0 && (
                  <li>
                    <Typography>{t('privacy.appointments', { count: data.upcoming_appointments })}</Typography>
                  </li>
                )}
                {data.care_network > 0 && (
                  <li>
                    <Typography>{t('privacy.careNetwork', { count: data.care_network })}</Typography>
                  </li>
                )}
              </Box>
            </Box>

            {data.dependants.length > 0 && (
              <Alert severity="warning">
                <Typography sx={{ fontWeight: 600 }}>{t('privacy.dependantsTitle', { count: data.dependants.length })}</Typography>
                <Box component="ul" aria-label={t('privacy.dependantsTitle', { count: data.dependants.length })} sx={{ m: 0, mt: 1, pl: 3 }}>
                  {data.dependants.map((d) => (
                    <li key={d.id}>{`${d.first_name} ${d.last_name}`.trim()}</li>
                  ))}
                </Box>
              </Alert>
            )}

            <Box>
              <Typography variant="h4" sx={{ fontSize: '1.05rem', fontWeight: 600, mb: 1 }}>
                {t('privacy.keptTitle')}
              </Typography>
              <Typography>{t('privacy.kept')}</Typography>
            </Box>

            <Alert severity="info">{t('privacy.grace', { days: data.grace_days })}</Alert>

            <Box>
              <Button color="error" variant="contained" onClick={() => setConfirming(true)} disabled={closeAccount.isPending}>
                {t('privacy.closeButton')}
              </Button>
            </Box>
          </>
        )}
      </Box>
      <ConfirmIdentityDialog
        open={confirming}
        title={t('privacy.confirmTitle')}
        description={t('privacy.confirmText', { days: data?.grace_days ?? 14 })}
        submitLabel={t('privacy.closeButton')}
        submitColor="error"
        allowCode={canProveWithCode(user)}
        onConfirm={(_values, proof) => close(proof)}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
