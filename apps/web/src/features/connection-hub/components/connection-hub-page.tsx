import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import LinkOff from '@mui/icons-material/LinkOff';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import type { CopyRecordsResult, LinkedAccount } from '@healthbook/shared/contracts/connection-hub';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { HubPage } from '../../../components/hub-page';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useDeleteLink } from '../api/delete-link';
import { useLinks } from '../api/list-links';
import { useSwitchAccount } from '../api/switch-account';
import { CopyRecordsDialog } from './copy-records-dialog';
import { LinkAccountDialog } from './link-account-dialog';

type Notice = { severity: 'success' | 'error' | 'info'; text: string } | null;

function formatDay(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

/**
 * /connection-hub — the accounts the member has in other organisations, linked to this one:
 * link another (signing in to it), switch to one (no password again), copy records between
 * the two, unlink. Each account's data stays in its own organisation.
 */
export default function ConnectionHubPage() {
  const { t, i18n } = useTranslation('connectionHub');
  const { org } = useOrganizationContext();
  const navigate = useNavigate();
  const links = useLinks();
  const remove = useDeleteLink();
  const switching = useSwitchAccount();
  const [linking, setLinking] = useState(false);
  const [copying, setCopying] = useState<LinkedAccount | null>(null);
  const [unlinking, setUnlinking] = useState<LinkedAccount | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const switchTo = (link: LinkedAccount) => {
    setNotice({ severity: 'info', text: t('switching', { organization: link.organization.name }) });
    switching.mutate(link.id, {
      onSuccess: (path) => void navigate(path, { replace: true }),
      onError: (error) => setNotice({ severity: 'error', text: applyServerErrors(error, { fallback: t('switchFailed') }) ?? t('switchFailed') }),
    });
  };

  const confirmUnlink = () => {
    const link = unlinking;
    setUnlinking(null);
    if (!link) return;
    remove.mutate(link.id, {
      onSuccess: () => setNotice({ severity: 'success', text: t('unlinked', { organization: link.organization.name }) }),
      onError: () => setNotice({ severity: 'error', text: t('unlinkFailed') }),
    });
  };

  const copied = (result: CopyRecordsResult) => {
    setCopying(null);
    setNotice({ severity: 'success', text: [t('copy.done', { count: result.copied }), result.duplicates ? t('copy.duplicates', { count: result.duplicates }) : '', result.skipped ? t('copy.skipped', { count: result.skipped }) : ''].filter(Boolean).join(' ') });
  };

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button variant="contained" startIcon={<Add aria-hidden />} onClick={() => setLinking(true)}>
          {t('linkAccount')}
        </Button>
      </Box>
      <Box aria-live="polite">
        {notice && (
          <Alert severity={notice.severity} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
            {notice.text}
          </Alert>
        )}
      </Box>
      {links.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      ) : links.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void links.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {t('loadError')}
        </Alert>
      ) : links.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 500 }}>{t('empty')}</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('emptyHint')}
          </Typography>
        </Paper>
      ) : (
        <Box component="ul" aria-label={t('listLabel')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
          {links.data.map((link) => (
            <Paper component="li" key={link.id} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} aria-labelledby={`link-${link.id}`}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
                {link.organization.logo && (
                  <Box component="img" src={link.organization.logo} alt="" sx={{ height: 36, maxWidth: 140, objectFit: 'contain', bgcolor: '#fff', borderRadius: 1, p: 0.5 }} />
                )}
                <Box sx={{ flex: 1, minWidth: 200 }}>
                  <Typography variant="h2" id={`link-${link.id}`} sx={{ fontSize: '1.15rem' }}>
                    {link.organization.name}
                  </Typography>
                  <Typography>{link.name}</Typography>
                  <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {link.email}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('linkedOn', { date: formatDay(link.linked_at, i18n.language) })}
                  </Typography>
                </Box>
              </Box>
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
                <Button variant="contained" startIcon={<SwapHoriz aria-hidden />} onClick={() => switchTo(link)} disabled={switching.isPending} aria-label={t('switchTo', { organization: link.organization.name })}>
                  {t('switch')}
                </Button>
                <Button variant="outlined" startIcon={<ContentCopy aria-hidden />} onClick={() => setCopying(link)} aria-label={t('copyWith', { organization: link.organization.name })}>
                  {t('copyRecords')}
                </Button>
                <Button color="error" startIcon={<LinkOff aria-hidden />} onClick={() => setUnlinking(link)} aria-label={t('unlinkFrom', { organization: link.organization.name })}>
                  {t('unlink')}
                </Button>
              </Box>
            </Paper>
          ))}
        </Box>
      )}
      {linking && (
        <LinkAccountDialog
          onClose={() => setLinking(false)}
          onLinked={(link) => {
            setLinking(false);
            setNotice({ severity: 'success', text: t('linked', { name: link.name, organization: link.organization.name }) });
          }}
        />
      )}
      {copying && <CopyRecordsDialog link={copying} hereName={org.org_name} onClose={() => setCopying(null)} onCopied={copied} />}
      <ConfirmDialog open={unlinking !== null} title={t('unlinkTitle')} onConfirm={confirmUnlink} onCancel={() => setUnlinking(null)} confirmLabel={t('unlink')} destructive>
        {t('unlinkText', { organization: unlinking?.organization.name ?? '', email: unlinking?.email ?? '' })}
      </ConfirmDialog>
    </HubPage>
  );
}
