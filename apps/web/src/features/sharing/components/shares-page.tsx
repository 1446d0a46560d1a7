import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import Add from '@mui/icons-material/Add';
import type { Share } from '@healthbook/shared/contracts/sharing';
import { FlashMessage, type Flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useShares } from '../api/list-shares';
import { dateTimeFormat, isLive, shareWhat, SHARING_NAMESPACES } from '../share-text';
import { RevokeDialog } from './revoke-dialog';
import { StatusChip } from './status-chip';

/** /sharing — "Share my record": the patient's shares (active, expired, revoked, locked), each with its openings; revoke; a new share. */
export default function SharesPage() {
  const { t } = useTranslation(SHARING_NAMESPACES);
  const { clientId } = useOrganizationContext();
  const shares = useShares();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [revoking, setRevoking] = useState<Share | null>(null);
  const [message, setMessage] = useState<Flash | null>(null);

  const newShare = (
    <Button component={RouterLink} to={paths.shareNew(clientId)} variant="contained" startIcon={<Add />} sx={{ whiteSpace: 'nowrap' }}>
      {t('list.newShare')}
    </Button>
  );

  return (
    <HubPage pageTitle={t('list.pageTitle')} intro={t('list.intro')} maxWidth={1200}>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2" sx={{ flex: 1, minWidth: 160 }}>
          {t('list.title')}
        </Typography>
        {newShare}
      </Stack>

      {shares.isError && (
        <Alert severity="error" action={<Button onClick={() => void shares.refetch()}>{t('retry')}</Button>} sx={{ mb: 2 }}>
          {t('list.loadFailed')}
        </Alert>
      )}
      {shares.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('list.title')} />
        </Box>
      )}
      {shares.data && shares.data.length === 0 && (
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, borderRadius: 3, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 600, mb: 1 }}>{t('list.empty')}</Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('list.emptyHint')}
          </Typography>
          {newShare}
        </Paper>
      )}
      {shares.data && shares.data.length > 0 && (wide ? <SharesTable shares={shares.data} onRevoke={setRevoking} /> : <SharesCards shares={shares.data} onRevoke={setRevoking} />)}

      <RevokeDialog
        share={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={(share) => setMessage({ severity: 'success', text: t('revoke.done', { name: share.recipient_name }) })}
        onFailed={(text) => setMessage({ severity: 'error', text })}
      />
      <FlashMessage message={message} onClose={() => setMessage(null)} />
    </HubPage>
  );
}

/** The texts of a share's row, in the reader's language and zone. */
function useShareRow() {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const format = dateTimeFormat(i18n.resolvedLanguage ?? 'en');
  return {
    t,
    what: (share: Share) => shareWhat(t, share),
    method: (share: Share) => t(`method.${share.method}`),
    expires: (share: Share) => format.format(new Date(share.revoked_at ?? share.expires_at)),
    expiresLabel: (share: Share) => (share.status === 'revoked' ? t('list.revokedOn') : share.status === 'expired' ? t('list.expiredOn') : t('list.expiresOn')),
    opened: (share: Share) =>
      share.opened_count === 0
        ? t('list.neverOpened')
        : `${t('list.openedCount', { count: share.opened_count })}${share.last_opened_at ? ` · ${t('list.lastOpened', { date: format.format(new Date(share.last_opened_at)) })}` : ''}`,
  };
}

function RecipientLink({ share }: { share: Share }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('sharing');
  return (
    <Box sx={{ minWidth: 0 }}>
      <Link component={RouterLink} to={paths.share(clientId, share.id)} sx={{ fontWeight: 600 }} aria-label={t('list.openShare', { name: share.recipient_name })}>
        {share.recipient_name}
      </Link>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {share.recipient_email}
      </Typography>
      {share.shared_by ? (
        <Typography variant="body2" color="text.secondary">
          {t('list.sharedBy', { name: share.shared_by })}
        </Typography>
      ) : null}
    </Box>
  );
}

function SharesTable({ shares, onRevoke }: { shares: Share[]; onRevoke: (share: Share) => void }) {
  const row = useShareRow();
  const { t } = row;
  return (
    <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
      <Table aria-label={t('list.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('list.recipient')}</TableCell>
            <TableCell>{t('list.what')}</TableCell>
            <TableCell>{t('list.method')}</TableCell>
            <TableCell>{t('list.status')}</TableCell>
            <TableCell>{t('list.expiry')}</TableCell>
            <TableCell>{t('list.openings')}</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                {t('list.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shares.map((share) => (
            <TableRow key={share.id} hover>
              <TableCell component="th" scope="row">
                <RecipientLink share={share} />
              </TableCell>
              <TableCell sx={{ maxWidth: 260 }}>{row.what(share)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.method(share)}</TableCell>
              <TableCell>
                <StatusChip status={share.status} />
              </TableCell>
              <TableCell>
                <Typography variant="body2" color="text.secondary">
                  {row.expiresLabel(share)}
                </Typography>
                <Typography variant="body2">{row.expires(share)}</Typography>
              </TableCell>
              <TableCell>
                <Typography variant="body2">{row.opened(share)}</Typography>
              </TableCell>
              <TableCell align="right">
                {isLive(share) && (
                  <Button color="error" size="small" onClick={() => onRevoke(share)} aria-label={t('list.revokeFor', { name: share.recipient_name })}>
                    {t('revoke.action')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

function SharesCards({ shares, onRevoke }: { shares: Share[]; onRevoke: (share: Share) => void }) {
  const row = useShareRow();
  const { t } = row;
  return (
    <Box component="ul" aria-label={t('list.title')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {shares.map((share) => (
        <Paper component="li" variant="outlined" key={share.id} sx={{ p: 2, borderRadius: 3 }}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between' }}>
            <RecipientLink share={share} />
            <StatusChip status={share.status} />
          </Box>
          <Box component="dl" sx={{ m: 0, mt: 1, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25 }}>
            {(
              [
                [t('list.what'), row.what(share)],
                [t('list.method'), row.method(share)],
                [row.expiresLabel(share), row.expires(share)],
                [t('list.openings'), row.opened(share)],
              ] as const
            ).map(([label, value]) => (
              <Box key={label} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {label}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          {isLive(share) && (
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
              <Button color="error" size="small" onClick={() => onRevoke(share)} aria-label={t('list.revokeFor', { name: share.recipient_name })}>
                {t('revoke.action')}
              </Button>
            </Box>
          )}
        </Paper>
      ))}
    </Box>
  );
}
