import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import type { Patient } from '@healthbook/shared/contracts/records';
import type { Flash } from '../../components/flash-message';
import { paths } from '../../lib/paths';
import { ACCESS_POLL_MS, patientName, patientsQueryOptions, resetRecordData, useRecordAccess } from '../../lib/record-access';
import { useViewingPatientId, viewingPatient } from '../../lib/viewing-patient';

/**
 * Keeps the viewed record honest (issue 13): cached data is dropped whenever the viewed record
 * changes (from the switcher, the care network's page or a family member's "Open record");
 * while another's record is open the list of records is asked every 15 s, on focus, and at
 * once when a call for it is refused; when the patient is no longer on it, the tab goes back to
 * the user's own record and says so.
 */
export function useViewedRecordWatch(clientId: string, enabled: boolean): Flash | null {
  const { t } = useTranslation('shell');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewing = useViewingPatientId();
  const [message, setMessage] = useState<Flash | null>(null);
  // When the viewed record last changed: only a list fetched after it can tell that access ended.
  const since = useRef(0);
  const names = useRef(new Map<number, string>());
  const previous = useRef(viewing);

  const list = useQuery({
    ...patientsQueryOptions(),
    enabled,
    refetchInterval: viewing !== null ? ACCESS_POLL_MS : false,
    refetchOnWindowFocus: viewing !== null ? 'always' : false,
  });

  useEffect(() => {
    if (previous.current === viewing) return;
    previous.current = viewing;
    since.current = Date.now();
    void resetRecordData(queryClient);
  }, [viewing, queryClient]);

  useEffect(() => viewingPatient.onDoubt(() => void queryClient.invalidateQueries({ queryKey: patientsQueryOptions().queryKey })), [queryClient]);

  useEffect(() => {
    for (const p of list.data ?? []) if (!p.is_self) names.current.set(p.patient_id, patientName(p));
    if (viewing === null || !list.isSuccess || list.isFetching || list.dataUpdatedAt < since.current) return;
    if (list.data.some((p) => p.patient_id === viewing)) return;
    const name = names.current.get(viewing);
    viewingPatient.set(null);
    setMessage({ severity: 'info', text: name ? t('records.ended', { name }) : t('records.endedUnnamed') });
    void navigate(paths.dashboard(clientId));
  }, [list.data, list.isSuccess, list.isFetching, list.dataUpdatedAt, viewing, navigate, clientId, t]);

  return message;
}

/**
 * The message that access ended, shown once over whatever page the tab is on (its own snackbar:
 * a page's FlashMessage shows what a navigation carries, this one nothing else).
 */
export function AccessEndedMessage({ message }: { message: Flash | null }) {
  const [closed, setClosed] = useState<Flash | null>(null);
  const shown = message && message !== closed ? message : null;
  const close = () => setClosed(message);
  return (
    <Snackbar open={shown !== null} autoHideDuration={10_000} onClose={(_e, reason) => reason !== 'clickaway' && close()} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      {shown ? (
        <Alert severity={shown.severity} variant="filled" onClose={close} sx={{ width: '100%' }}>
          {shown.text}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}

/**
 * "Viewing <name>'s record" over every signed-in page while another's record is open, with
 * "Read-only" when so and the way back to one's own record. It stays in view (under the app
 * bar) while the page scrolls.
 */
export function ViewedRecordBanner({ clientId, top }: { clientId: string; top: { xs: number; md: number } }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { viewingOther, patient, readOnly } = useRecordAccess();
  const records = useTranslation('records');
  if (!viewingOther || !patient) return null;
  const name = patientName(patient);
  // A grant limited to some categories says which (the rest of the record is not theirs to see).
  const limitedTo = patient.categories ? patient.categories.map((c) => records.t(`categories.${c}.other`)).join(', ') : null;
  return (
    <Box
      component="section"
      aria-label={t('records.bannerLabel')}
      sx={{
        position: 'sticky',
        top,
        zIndex: (th) => th.zIndex.appBar - 1,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        px: { xs: 2, sm: 3 },
        py: 1,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 1.5,
        rowGap: 1,
      }}
    >
      <VisibilityOutlined aria-hidden fontSize="small" />
      <Typography role="status" sx={{ fontWeight: 600, flex: '1 1 auto', minWidth: 0, overflowWrap: 'anywhere' }}>
        {t('records.viewing', { name })}
      </Typography>
      {readOnly && <Chip size="small" label={t('records.readOnly')} sx={{ bgcolor: 'background.paper', color: 'text.primary', fontWeight: 600 }} />}
      {limitedTo && <Chip size="small" label={t('records.limitedTo', { list: limitedTo })} sx={{ bgcolor: 'background.paper', color: 'text.primary', fontWeight: 600, maxWidth: '100%' }} />}
      <Button
        size="small"
        variant="contained"
        sx={{ bgcolor: 'background.paper', color: 'text.primary', '&:hover': { bgcolor: 'action.selected' } }}
        onClick={() => {
          viewingPatient.set(null);
          void navigate(paths.dashboard(clientId));
        }}
      >
        {t('records.backToMine')}
      </Button>
    </Box>
  );
}

/** How a record is open to the user, in words. */
function relationText(p: Patient, t: (key: string) => string): string {
  if (p.relation === 'dependant') return t('records.familyMember');
  return p.access === 'read-only' ? t('records.readOnly') : t('records.fullAccess');
}

/**
 * The avatar menu's "Records": the user's own and each they were let into; choosing one opens it
 * (the cached data is dropped by useViewedRecordWatch) on the dashboard. Nothing when there is
 * only one's own.
 */
export function recordSwitcherItems({
  patients,
  viewing,
  t,
  onChoose,
}: {
  patients: Patient[] | undefined;
  viewing: number | null;
  t: (key: string, options?: Record<string, unknown>) => string;
  onChoose: (patientId: number | null) => void;
}) {
  const all = Array.isArray(patients) ? patients : [];
  const others = all.filter((p) => !p.is_self);
  if (others.length === 0) return [];
  const own = viewing === null || all.some((p) => p.is_self && p.patient_id === viewing);
  const item = (key: string, label: string, secondary: string | null, chosen: boolean, id: number | null) => (
    <MenuItem key={key} role="menuitemradio" aria-checked={chosen} selected={chosen} onClick={() => onChoose(id)}>
      <ListItemIcon>{chosen ? <Check fontSize="small" aria-hidden /> : null}</ListItemIcon>
      <ListItemText primary={label} secondary={secondary} slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }} />
    </MenuItem>
  );
  return [
    <ListSubheader key="records-heading" role="presentation" sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>
      {t('records.heading')}
    </ListSubheader>,
    item('records-own', t('records.mine'), null, own, null),
    ...others.map((p) => item(`records-${p.patient_id}`, patientName(p), relationText(p, t), viewing === p.patient_id, p.patient_id)),
  ];
}
