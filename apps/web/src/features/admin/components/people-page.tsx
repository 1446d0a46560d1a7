import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import MoreVert from '@mui/icons-material/MoreVert';
import PersonAdd from '@mui/icons-material/PersonAdd';
import UploadFile from '@mui/icons-material/UploadFile';
import type { Person } from '@healthbook/shared/contracts/people';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useCurrentUser } from '../../../lib/auth';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useOrganizations } from '../api/get-organizations';
import { usePeople, type PeopleParams } from '../api/get-people';
import { usePersonAction, type PersonAction } from '../api/person-actions';
import { InviteStaffDialog } from './invite-staff-dialog';
import { ResetMfaDialog, RolesDialog } from './person-dialogs';

const PAGE_SIZES = [10, 25, 50, 100];
/** A focused field's label sits on the page's grey: the darker primary keeps its contrast. */
const FOCUSED_LABEL = { '& .MuiInputLabel-root.Mui-focused': { color: 'primary.dark' } } as const;
/** The status chips keep the text colour (contrast) and say their kind by the border. */
const STATUS_BORDER: Record<Person['statuses'][number], string> = { active: 'success.main', invited: 'warning.main', locked: 'error.main', deactivated: 'error.main', mfa: 'info.main' };

/** Waits a moment after the last keystroke before searching (one request per pause, not per key). */
function useDebounced<T>(value: T, ms = 300): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

/**
 * The administrator's home (`addUser/home`): the people of the organisation — patients and
 * staff, searched and paged by the server, with their status, last sign-in and roles — and what
 * an administrator does for them: invite staff or patients (one, or many from a file), change
 * roles, deactivate and reactivate, unlock a sign-in, reset a lost second factor, send an
 * invitation again. A super admin chooses the organisation.
 */
export default function PeoplePage() {
  const { t, i18n } = useTranslation('people');
  const language = i18n.resolvedLanguage ?? 'en';
  const { clientId } = useOrganizationContext();
  const user = useCurrentUser();
  const superadmin = user?.is_superadmin === true;
  const organizations = useOrganizations(superadmin);
  const [org, setOrg] = useState<number | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<PeopleParams['kind']>('all');
  const [pageSize, setPageSize] = useState(25);
  const debounced = useDebounced(search);
  // Another search, filter, organisation or page size starts again at the first page.
  const filterKey = JSON.stringify([debounced, kind, org, pageSize]);
  const [paging, setPaging] = useState({ key: filterKey, page: 1 });
  const page = paging.key === filterKey ? paging.page : 1;
  const setPage = (next: number) => setPaging({ key: filterKey, page: next });
  const params: PeopleParams = { org, search: debounced, kind, page, pageSize };
  const people = usePeople(params, language);
  const [inviting, setInviting] = useState(false);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const searchId = useId();

  const data = people.data;
  const orgId = data?.org.id;
  const dateTime = new Intl.DateTimeFormat(language === 'el' ? 'el-GR' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro', { orgName: data?.org.org_name ?? '' })} maxWidth={1200}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 3, flexWrap: 'wrap' }} useFlexGap>
        <Button variant="contained" startIcon={<PersonAdd />} onClick={() => setInviting(true)}>
          {t('inviteStaff')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.invitePatient(clientId)} startIcon={<PersonAdd />}>
          {t('invitePatient')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={`${paths.patientImport(clientId)}${org !== undefined ? `?org=${org}` : ''}`} startIcon={<UploadFile />}>
          {t('importPatients')}
        </Button>
        <Button variant="text" component={RouterLink} to={paths.dashboard(clientId)}>
          {t('toDashboard')}
        </Button>
      </Stack>

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        {superadmin && (
          <TextField select size="small" label={t('organization')} value={org ?? orgId ?? ''} onChange={(e) => setOrg(Number(e.target.value))} sx={{ minWidth: 220, ...FOCUSED_LABEL }}>
            {(organizations.data ?? []).map((o) => (
              <MenuItem key={o.org} value={o.org}>
                {o.org_name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField id={searchId} size="small" type="search" label={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} sx={{ flex: 1, minWidth: 200, ...FOCUSED_LABEL }} />
        <ToggleButtonGroup exclusive size="small" value={kind} sx={{ '& .MuiToggleButton-root': { color: 'text.primary' } }} onChange={(_e, value: PeopleParams['kind'] | null) => value && setKind(value)} aria-label={t('kind.label')}>
          {(['all', 'patients', 'staff'] as const).map((k) => (
            <ToggleButton key={k} value={k}>
              {t(`kind.${k}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>

      {notice && (
        <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
          {notice.text}
        </Alert>
      )}
      {people.isError && <Alert severity="error">{applyServerErrors(people.error, { fallback: t('loadFailed') })}</Alert>}
      {people.isPending && <CircularProgress aria-label={t('loading')} />}
      {data && (
        <Paper variant="outlined">
          <TableContainer>
            <Table size="small" aria-label={t('tableLabel', { orgName: data.org.org_name })}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('columns.name')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('columns.email')}</TableCell>
                  <TableCell>{t('columns.status')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('columns.roles')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('columns.lastSignIn')}</TableCell>
                  <TableCell align="right">
                    <Box component="span" sx={visuallyHidden}>
                      {t('columns.actions')}
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.results.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={6}>{t('empty')}</TableCell>
                  </TableRow>
                )}
                {data.results.map((person) => (
                  <TableRow key={person.key} hover>
                    <TableCell>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {`${person.first_name} ${person.last_name}`.trim()}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', md: 'none' }, wordBreak: 'break-all' }}>
                        {person.email}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>{person.email}</TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                        {person.statuses.map((s) => (
                          <Chip key={s} size="small" label={t(`status.${s}`)} variant="outlined" sx={{ borderColor: STATUS_BORDER[s], borderWidth: 2 }} />
                        ))}
                      </Stack>
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                      {[...(person.is_superadmin ? [t('roles.superadmin')] : []), ...person.roles.filter((r) => r !== 'professional').map((r) => t(`roles.${r}`))].join(', ')}
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{person.last_sign_in ? dateTime.format(new Date(person.last_sign_in)) : t('never')}</TableCell>
                    <TableCell align="right">
                      <PersonMenu person={person} self={person.user_id === user?.user_id} onDone={setNotice} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={data.count}
            page={page - 1}
            rowsPerPage={pageSize}
            rowsPerPageOptions={PAGE_SIZES}
            onPageChange={(_e, p) => setPage(p + 1)}
            onRowsPerPageChange={(e) => setPageSize(Number(e.target.value))}
            labelRowsPerPage={t('rowsPerPage')}
            labelDisplayedRows={({ from, to, count }) => t('displayedRows', { from, to, count })}
            getItemAriaLabel={(type) => t(`pageButton.${type}`)}
          />
        </Paper>
      )}
      {inviting && (
        <InviteStaffDialog
          org={org}
          onClose={(invited) => {
            setInviting(false);
            if (invited) setNotice({ severity: 'success', text: t('invite.sent', { email: invited.email }) });
          }}
        />
      )}
    </HubPage>
  );
}

type Dialog = 'roles' | 'mfa' | null;

/** One person's actions: what applies to them, in a menu. */
function PersonMenu({ person, self, onDone }: { person: Person; self: boolean; onDone: (n: { severity: 'success' | 'error'; text: string }) => void }) {
  const { t } = useTranslation('people');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const action = usePersonAction();
  const name = `${person.first_name} ${person.last_name}`.trim();
  const run = async (a: PersonAction, done: string) => {
    setAnchor(null);
    try {
      await action.mutateAsync(a);
      onDone({ severity: 'success', text: t(`done.${done}`, { name }) });
    } catch (error) {
      onDone({ severity: 'error', text: applyServerErrors(error, { fallback: t('actionFailed') }) ?? t('actionFailed') });
    }
  };
  const id = person.user_id;
  const items: Array<{ key: string; label: string; onClick: () => void }> = [];
  if (id === null && person.invitation_id !== null) items.push({ key: 'resend', label: t('actions.resend'), onClick: () => void run({ kind: 'resend-patient', invitationId: person.invitation_id! }, 'resend') });
  if (id !== null) {
    if (!self) items.push({ key: 'roles', label: t('actions.roles'), onClick: () => (setAnchor(null), setDialog('roles')) });
    if (person.statuses.includes('invited')) items.push({ key: 'resend', label: t('actions.resend'), onClick: () => void run({ kind: 'resend-invitation', userId: id }, 'resend') });
    if (person.statuses.includes('locked')) items.push({ key: 'unlock', label: t('actions.unlock'), onClick: () => void run({ kind: 'unlock', userId: id }, 'unlock') });
    if (person.statuses.includes('mfa')) items.push({ key: 'mfa', label: t('actions.resetMfa'), onClick: () => (setAnchor(null), setDialog('mfa')) });
    if (!self && person.statuses.includes('deactivated')) items.push({ key: 'reactivate', label: t('actions.reactivate'), onClick: () => void run({ kind: 'reactivate', userId: id }, 'reactivate') });
    else if (!self) items.push({ key: 'deactivate', label: t('actions.deactivate'), onClick: () => void run({ kind: 'deactivate', userId: id }, 'deactivate') });
  }
  if (!items.length) return null;
  return (
    <>
      <IconButton aria-label={t('actions.label', { name })} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {items.map((item) => (
          <MenuItem key={item.key} onClick={item.onClick}>
            {item.label}
          </MenuItem>
        ))}
      </Menu>
      {dialog === 'roles' && id !== null && (
        <RolesDialog
          person={person}
          onClose={(changed) => {
            setDialog(null);
            if (changed) onDone({ severity: 'success', text: t('done.roles', { name }) });
          }}
        />
      )}
      {dialog === 'mfa' && id !== null && (
        <ResetMfaDialog
          person={person}
          onClose={(changed) => {
            setDialog(null);
            if (changed) onDone({ severity: 'success', text: t('done.resetMfa', { name }) });
          }}
        />
      )}
    </>
  );
}
