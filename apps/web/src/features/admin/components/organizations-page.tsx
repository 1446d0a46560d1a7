import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Add from '@mui/icons-material/Add';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useAdminOrganizations } from '../api/admin-organizations';

/** Administration → Organisations (super admins): every organisation with its people and status; create one, open one. */
export default function OrganizationsPage() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('admin');
  const list = useAdminOrganizations();
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);

  return (
    <HubPage pageTitle={t('organizations.pageTitle')} intro={t('organizations.intro')} maxWidth={1100}>
      <Button component={RouterLink} to={paths.organizationNew(clientId)} variant="contained" startIcon={<Add />} sx={{ mb: 3 }}>
        {t('organizations.new')}
      </Button>
      {list.isPending && (
        <Box sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {list.isError && <Alert severity="error">{t('organizations.loadFailed')}</Alert>}
      {list.data && (
        <Paper variant="outlined" sx={{ borderRadius: 3, overflowX: 'auto' }}>
          <Table>
            <Box component="caption" sx={visuallyHidden}>
              {t('organizations.pageTitle')}
            </Box>
            <TableHead>
              <TableRow>
                <TableCell>{t('organizations.columns.name')}</TableCell>
                <TableCell>{t('organizations.columns.clientId')}</TableCell>
                <TableCell align="right">{t('organizations.columns.users')}</TableCell>
                <TableCell align="right">{t('organizations.columns.patients')}</TableCell>
                <TableCell>{t('organizations.columns.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.map((o) => (
                <TableRow key={o.org} hover>
                  <TableCell component="th" scope="row">
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                      <Box
                        aria-hidden
                        sx={{ width: 14, height: 14, borderRadius: '50%', flex: 'none', bgcolor: o.primary_color ?? 'primary.main', border: 1, borderColor: 'divider' }}
                      />
                      <Link component={RouterLink} to={paths.organizationEdit(clientId, o.org)} sx={{ fontWeight: 600 }}>
                        {o.org_name}
                      </Link>
                    </Box>
                  </TableCell>
                  <TableCell>
                    <Box component="code" sx={{ fontSize: 14 }}>
                      {o.name}
                    </Box>
                  </TableCell>
                  <TableCell align="right">{number.format(o.users)}</TableCell>
                  <TableCell align="right">{number.format(o.patients)}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="outlined" color={o.active ? 'success' : 'default'} label={o.active ? t('organizations.status.active') : t('organizations.status.deactivated')} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
    </HubPage>
  );
}
