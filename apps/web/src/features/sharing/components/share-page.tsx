import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
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
import Block from '@mui/icons-material/Block';
import Refresh from '@mui/icons-material/Refresh';
import type { CreatedShare, Share, ShareAccess } from '@healthbook/shared/contracts/sharing';
import { SHARE_MAX_ATTEMPTS } from '@healthbook/shared/sharing';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { FlashMessage, type Flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useShare } from '../api/get-share';
import { useShareAccesses } from '../api/list-share-accesses';
import { useReissueShare } from '../api/reissue-share';
import { accessShown, browserText, categoryLabel, dateTimeFormat, isLive, SHARING_NAMESPACES } from '../share-text';
import { RevokeDialog } from './revoke-dialog';
import { ShareResult } from './share-result';
import { StatusChip } from './status-chip';
import { TermList } from '../../../components/term-list';

/** /sharing/:id — one share: what it holds, to whom, until when; who opened it; revoke, or a new link or passcode. */
export default function SharePage() {
  const { id = '' } = useParams();
  const { clientId } = useOrganizationContext();
  const shareId = /^[0-9]{1,10}$/.test(id) ? Number(id) : null;
  if (shareId === null) return <Navigate to={paths.notFound(clientId)} replace />;
  return <ShareView key={shareId} id={shareId} />;
}

function ShareView({ id }: { id: number }) {
  const { t } = useTranslation(SHARING_NAMESPACES);
  const { clientId } = useOrganizationContext();
  const share = useShare(id);
  const notFound = share.error instanceof ApiError && share.error.status === 404;
  return (
    <HubPage
      pageTitle={share.data ? t('detail.pageTitle', { name: share.data.recipient_name }) : t('detail.title')}
      maxWidth={1100}
      back={{ to: paths.sharing(clientId), label: t('backToShares') }}
    >
      {share.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('detail.title')} />
        </Box>
      )}
      {share.isError && (
        <Alert severity={notFound ? 'info' : 'error'} action={notFound ? undefined : <Button onClick={() => void share.refetch()}>{t('retry')}</Button>}>
          {notFound ? t('detail.notFound') : t('detail.loadFailed')}
        </Alert>
      )}
      {share.data && <ShareBody share={share.data} />}
    </HubPage>
  );
}

function ShareBody({ share }: { share: Share }) {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const format = dateTimeFormat(i18n.resolvedLanguage ?? 'en');
  const reissue = useReissueShare();
  const [confirm, setConfirm] = useState<'revoke' | 'reissue' | null>(null);
  const [reissued, setReissued] = useState<CreatedShare | null>(null);
  const [message, setMessage] = useState<Flash | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const qr = share.method === 'qr';

  useEffect(() => {
    if (reissued) resultRef.current?.focus();
  }, [reissued]);

  const doReissue = () => {
    setConfirm(null);
    setReissued(null);
    reissue.mutateAsync(share.id).then(setReissued, (error: unknown) =>
      setMessage({ severity: 'error', text: applyServerErrors(error, { fallback: t('reissue.failed') }) ?? t('reissue.failed') }),
    );
  };

  const details: Array<[string, ReactNode]> = [
    [
      t('detail.recipient'),
      <>
        {share.recipient_name}
        <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
          {share.recipient_email}
        </Box>
      </>,
    ],
    [t('detail.method'), t(`method.${share.method}`)],
    [t('detail.created'), format.format(new Date(share.created_at))],
    [share.status === 'expired' ? t('list.expiredOn') : t('list.expiresOn'), format.format(new Date(share.expires_at))],
    ...(share.revoked_at ? ([[t('list.revokedOn'), format.format(new Date(share.revoked_at))]] as Array<[string, ReactNode]>) : []),
    [t('detail.wrongCodes'), t('detail.wrongCodesValue', { count: share.failed_attempts, max: SHARE_MAX_ATTEMPTS })],
    ...(share.message ? ([[t('detail.message'), share.message]] as Array<[string, ReactNode]>) : []),
  ];

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ mb: 2, alignItems: { xs: 'flex-start', sm: 'center' }, gap: 1.5 }}>
        <StatusChip status={share.status} />
        <Box sx={{ flex: 1 }} />
        {isLive(share) && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button variant="outlined" startIcon={<Refresh />} onClick={() => setConfirm('reissue')} disabled={reissue.isPending}>
              {qr ? t('reissue.actionQr') : t('reissue.actionLink')}
            </Button>
            <Button variant="outlined" color="error" startIcon={<Block />} onClick={() => setConfirm('revoke')}>
              {t('revoke.action')}
            </Button>
          </Box>
        )}
      </Stack>

      {share.status === 'locked' && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t(qr ? 'detail.lockedQr' : 'detail.lockedLink', { max: SHARE_MAX_ATTEMPTS })}
        </Alert>
      )}
      {reissue.isPending && <CircularProgress size={24} aria-label={qr ? t('reissue.actionQr') : t('reissue.actionLink')} sx={{ mb: 2 }} />}
      {reissued && (
        <Box ref={resultRef} tabIndex={-1} component="section" aria-label={qr ? t('reissue.resultQr') : t('reissue.resultLink')} sx={{ mb: 3, outline: 'none' }}>
          <ShareResult share={reissued} reissued />
          <Button onClick={() => setReissued(null)} sx={{ mt: 1 }}>
            {t('reissue.done')}
          </Button>
        </Box>
      )}

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' }, mb: 3 }}>
        <Paper variant="outlined" component="section" aria-labelledby="share-details" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
          <Typography id="share-details" variant="h2" sx={{ mb: 1.5 }}>
            {t('detail.detailsTitle')}
          </Typography>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content minmax(0, 1fr)' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
            {details.map(([label, value]) => (
              <Box key={label} sx={{ display: 'contents' }}>
                <Typography component="dt" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
        </Paper>
        <WhatIsShared share={share} />
      </Box>

      <AccessLog share={share} />

      <RevokeDialog
        share={confirm === 'revoke' ? share : null}
        onClose={() => setConfirm(null)}
        onRevoked={() => {
          setReissued(null);
          setMessage({ severity: 'success', text: t('revoke.done', { name: share.recipient_name }) });
        }}
        onFailed={(text) => setMessage({ severity: 'error', text })}
      />
      <ConfirmDialog
        open={confirm === 'reissue'}
        title={qr ? t('reissue.titleQr') : t('reissue.titleLink')}
        confirmLabel={qr ? t('reissue.actionQr') : t('reissue.actionLink')}
        onCancel={() => setConfirm(null)}
        onConfirm={doReissue}
      >
        <DialogContentText>{t(qr ? 'reissue.textQr' : 'reissue.textLink', { name: share.recipient_name, max: SHARE_MAX_ATTEMPTS })}</DialogContentText>
      </ConfirmDialog>
      <FlashMessage message={message} onClose={() => setMessage(null)} />
    </>
  );
}

function WhatIsShared({ share }: { share: Share }) {
  const { t } = useTranslation(SHARING_NAMESPACES);
  const { clientId } = useOrganizationContext();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="share-what" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id="share-what" variant="h2" sx={{ mb: 1.5 }}>
        {t('detail.whatTitle')}
      </Typography>
      {share.kind === 'records' && share.categories.length > 0 && (
        <>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('detail.categories')}
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, mb: 1.5, pl: 3 }}>
            {share.categories.map((c) => (
              <li key={c}>{categoryLabel(t, c)}</li>
            ))}
          </Box>
        </>
      )}
      {share.kind === 'records' && share.records.length > 0 && (
        <>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('detail.records')}
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, mb: 1.5, pl: 3 }}>
            {share.records.map((r) => (
              <li key={r.id}>
                <Link component={RouterLink} to={paths.recordDetail(clientId, r.record_type, r.id)}>
                  {r.title || t('healthRecords:untitled')}
                </Link>{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  ({categoryLabel(t, r.record_type, false)})
                </Typography>
              </li>
            ))}
          </Box>
        </>
      )}
      {share.kind === 'documents' && share.documents.length > 0 && (
        <>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('detail.documents')}
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, mb: 1.5, pl: 3 }}>
            {share.documents.map((d) => (
              <li key={d.id} style={{ overflowWrap: 'anywhere' }}>
                {d.file_name}
              </li>
            ))}
          </Box>
        </>
      )}
      {share.kind === 'records' && share.insurance && (
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
          {t('detail.insurance')}
        </Typography>
      )}
      {share.categories.length + share.records.length + share.documents.length === 0 && !share.insurance && <Typography color="text.secondary">{t('detail.nothingLeft')}</Typography>}
      <Typography variant="body2" color="text.secondary">
        {share.kind === 'records' ? t('detail.privateNote') : t('detail.privateNoteDocuments')}
      </Typography>
    </Paper>
  );
}

function AccessLog({ share }: { share: Share }) {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const accesses = useShareAccesses(share.id);
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const format = dateTimeFormat(i18n.resolvedLanguage ?? 'en');
  const cells = (a: ShareAccess) => ({
    when: format.format(new Date(a.opened_at)),
    action: t(`access.actions.${a.action}`),
    recipient: a.recipient_name,
    browser: browserText(t, a.user_agent),
    ip: a.ip ?? '—',
    // The code alone shows nothing.
    shown: a.action === 'verified' ? '—' : accessShown(t, a.shown),
  });
  const columns = ['when', 'action', 'recipient', 'browser', 'ip', 'shown'] as const;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="share-accesses" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id="share-accesses" variant="h2" sx={{ mb: 0.5 }}>
        {t('access.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('access.intro')}
      </Typography>
      {accesses.isPending && <CircularProgress size={24} aria-label={t('access.title')} />}
      {accesses.isError && (
        <Alert severity="error" action={<Button onClick={() => void accesses.refetch()}>{t('retry')}</Button>}>
          {t('access.loadFailed')}
        </Alert>
      )}
      {accesses.data && accesses.data.length === 0 && <Typography color="text.secondary">{t('access.empty')}</Typography>}
      {accesses.data && accesses.data.length > 0 && wide && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby="share-accesses">
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                    {t(`access.columns.${c}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {accesses.data.map((a) => {
                const row = cells(a);
                return (
                  <TableRow key={a.id}>
                    {columns.map((c) => (
                      <TableCell key={c} title={c === 'browser' ? (a.user_agent ?? undefined) : undefined} sx={c === 'when' || c === 'ip' ? { whiteSpace: 'nowrap' } : undefined}>
                        {row[c]}
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      )}
      {accesses.data && accesses.data.length > 0 && !wide && (
        <Box component="ul" aria-labelledby="share-accesses" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {accesses.data.map((a) => {
            const row = cells(a);
            return (
              <Box component="li" key={a.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5 }}>
                <Typography sx={{ fontWeight: 600 }}>{row.action}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                  {row.when}
                </Typography>
                <TermList terms={(['recipient', 'browser', 'ip', 'shown'] as const).map((c) => ({ key: c, label: t(`access.columns.${c}`), value: row[c] }))} />
              </Box>
            );
          })}
        </Box>
      )}
    </Paper>
  );
}
