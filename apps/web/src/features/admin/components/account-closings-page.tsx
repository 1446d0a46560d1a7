import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HubPage } from '../../../components/hub-page';
import { useSession } from '../../../lib/auth';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useAccountClosings } from '../api/get-account-closings';
import { useOrganizations } from '../api/get-organizations';
import { TermList } from '../../../components/term-list';

/**
 * Administration → Pending account closings (issue 25 §4): the patients who closed their account
 * and when each will be erased, unless they sign in again before. Organisation admins see their
 * organisation; super admins choose any. A page of its own (admin/account-closings).
 */
export default function AccountClosingsPage() {
  const { org } = useOrganizationContext();
  const { user } = useSession();
  const { t, i18n } = useTranslation('admin');
  const superadmin = user?.is_superadmin === true;
  const organizations = useOrganizations(superadmin);
  const [organizationId, setOrganizationId] = useState(org.org);
  const closings = useAccountClosings(organizationId);
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language === 'el' ? 'el-GR' : 'en-GB', { dateStyle: 'medium' }).format(new Date(iso));
  const rows = closings.data?.results ?? [];

  return (
    <HubPage pageTitle={t('closings.pageTitle')} intro={t('closings.intro')}>
      {superadmin && (
        <TextField select label={t('organization')} value={organizations.data ? organizationId : org.org} onChange={(e) => setOrganizationId(Number(e.target.value))} sx={{ mb: 3, minWidth: 260 }}>
          {(organizations.data ?? [org]).map((o) => (
            <MenuItem key={o.org} value={o.org}>
              {o.org_name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {closings.isPending && <Skeleton variant="rounded" height={160} />}
      {closings.isError && <Alert severity="error">{t('closings.loadError')}</Alert>}
      {closings.isSuccess && rows.length === 0 && <Typography>{t('closings.none')}</Typography>}
      {rows.length > 0 && (
        // A table from tablet width; at phone width each closing is a card of its own.
        <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 2, display: { xs: 'none', sm: 'block' } }}>
          <Table aria-label={t('closings.tableLabel')}>
            <TableHead>
              <TableRow>
                <TableCell scope="col">{t('closings.columns.patient')}</TableCell>
                <TableCell scope="col">{t('closings.columns.email')}</TableCell>
                <TableCell scope="col">{t('closings.columns.requested')}</TableCell>
                <TableCell scope="col">{t('closings.columns.erase')}</TableCell>
                <TableCell scope="col" align="right">
                  {t('closings.columns.dependants')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell>{`${row.first_name} ${row.last_name}`.trim()}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.email}</TableCell>
                  <TableCell>{date(row.requested_at)}</TableCell>
                  <TableCell>{date(row.erase_after)}</TableCell>
                  <TableCell align="right">{row.dependants}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {rows.length > 0 && (
        <Stack component="ul" aria-label={t('closings.tableLabel')} spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0, display: { xs: 'flex', sm: 'none' } }}>
          {rows.map((row) => (
            <Paper component="li" key={row.id} variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
              <Typography sx={{ fontWeight: 600 }}>{`${row.first_name} ${row.last_name}`.trim()}</Typography>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {row.email}
              </Typography>
              <TermList
                sx={{ mt: 1 }}
                terms={[
                  { key: 'requested', label: t('closings.columns.requested'), value: date(row.requested_at) },
                  { key: 'erase', label: t('closings.columns.erase'), value: date(row.erase_after) },
                  { key: 'dependants', label: t('closings.columns.dependants'), value: row.dependants },
                ]}
              />
            </Paper>
          ))}
        </Stack>
      )}
    </HubPage>
  );
}
