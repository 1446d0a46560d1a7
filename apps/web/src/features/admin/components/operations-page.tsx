import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { OperationsSummary } from '@healthbook/shared/contracts/operations';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { applyServerErrors } from '../../../lib/form-errors';
import { saveBlob } from '../../../lib/files';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useOrganizations } from '../api/get-organizations';
import { getOperationsCsv, useOperationsSummary, type OperationsPeriod } from '../api/get-operations-summary';
import { dayInZone, periodEnding, PRESETS, type Preset } from '../operations-period';

/**
 * The super admin's operations dashboard: for one organisation and a period, its patients and
 * active users, sign-ins, failures and lockouts per day, second-factor adoption, invitations and
 * feature use, read from the tables and the audit log as they are; the same figures as CSV.
 */
export default function OperationsPage() {
  const { org } = useOrganizationContext();
  const { t, i18n } = useTranslation('operations');
  const language = i18n.resolvedLanguage ?? 'en';
  const tz = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', []);
  const organizations = useOrganizations();
  const [organizationId, setOrganizationId] = useState(org.org);
  const [preset, setPreset] = useState<Preset>('30');
  const [custom, setCustom] = useState(() => periodEnding(dayInZone(new Date(), tz), 30));
  const range = preset === 'custom' ? custom : periodEnding(dayInZone(new Date(), tz), Number(preset));
  const period: OperationsPeriod = { organizationId, from: range.from, to: range.to, tz };
  const summary = useOperationsSummary(period, language);
  const [downloadError, setDownloadError] = useState(false);

  const download = async () => {
    setDownloadError(false);
    try {
      const csv = await getOperationsCsv(period);
      saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `operations-${summary.data?.organization.name ?? organizationId}-${period.from}-${period.to}.csv`);
    } catch {
      setDownloadError(true);
    }
  };

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro', { tz })} maxWidth={1200}>

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3, flexWrap: 'wrap', alignItems: { sm: 'flex-start' }, rowGap: 2 }}>
        <TextField select label={t('organization')} value={organizations.data ? organizationId : org.org} onChange={(e) => setOrganizationId(Number(e.target.value))} sx={{ minWidth: 220 }}>
          {(organizations.data ?? [org]).map((o) => (
            <MenuItem key={o.org} value={o.org}>
              {o.org_name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label={t('period')} value={preset} onChange={(e) => setPreset(e.target.value as Preset)} sx={{ minWidth: 180 }}>
          {PRESETS.map((p) => (
            <MenuItem key={p} value={p}>
              {t(`presets.${p}`)}
            </MenuItem>
          ))}
        </TextField>
        {preset === 'custom' && (
          <>
            <TextField type="date" label={t('from')} value={custom.from} onChange={(e) => e.target.value && setCustom({ ...custom, from: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
            <TextField type="date" label={t('to')} value={custom.to} onChange={(e) => e.target.value && setCustom({ ...custom, to: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
          </>
        )}
        <Button variant="outlined" startIcon={<Download />} onClick={() => void download()} disabled={!summary.data} sx={{ alignSelf: { sm: 'center' } }}>
          {t('download')}
        </Button>
      </Stack>

      {downloadError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('downloadFailed')}
        </Alert>
      )}
      {summary.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {applyServerErrors(summary.error, { fallback: t('loadFailed') })}
        </Alert>
      )}
      {summary.isPending && (
        <Box sx={{ p: 6, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {summary.data && <Figures summary={summary.data} />}
    </HubPage>
  );
}

function Figures({ summary }: { summary: OperationsSummary }) {
  const { t, i18n } = useTranslation('operations');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const percent = new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'percent', maximumFractionDigits: 1 });
  const shortDate = new Intl.DateTimeFormat(i18n.resolvedLanguage, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const dayLabel = (date: string) => shortDate.format(new Date(`${date}T00:00:00Z`));
  const totals = summary.daily.reduce((s, d) => ({ sign_ins: s.sign_ins + d.sign_ins, failed: s.failed + d.failed_sign_ins, lockouts: s.lockouts + d.lockouts }), {
    sign_ins: 0,
    failed: 0,
    lockouts: 0,
  });

  return (
    <>
      <Box component="dl" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, m: 0, mb: 3 }}>
        <Stat label={t('stats.patients')} value={number.format(summary.patients)} note={t('stats.usersNote', { count: summary.users })} />
        <Stat label={t('stats.active7')} value={number.format(summary.active_users.last_7_days)} />
        <Stat label={t('stats.active30')} value={number.format(summary.active_users.last_30_days)} />
        <Stat
          label={t('stats.secondFactor')}
          value={percent.format(summary.second_factor.share)}
          note={t('stats.secondFactorNote', { with: summary.second_factor.users_with, count: summary.second_factor.users })}
        />
        <Stat label={t('stats.signIns')} value={number.format(totals.sign_ins)} note={t('stats.inPeriod')} />
        <Stat label={t('stats.failedSignIns')} value={number.format(totals.failed)} note={t('stats.lockoutsNote', { count: totals.lockouts })} />
        <Stat label={t('stats.invitationsPending')} value={number.format(summary.invitations.pending)} note={t('stats.now')} />
        <Stat
          label={t('stats.invitationsUsed')}
          value={number.format(summary.invitations.used)}
          note={t('stats.invitationsExpiredNote', { count: summary.invitations.expired })}
        />
      </Box>

      <ChartCard
        title={t('charts.signIns')}
        table={
          <FiguresTable
            caption={t('charts.signIns')}
            head={[t('table.date'), t('series.signIns'), t('series.failed'), t('series.lockouts')]}
            rows={summary.daily.map((d) => [dayLabel(d.date), d.sign_ins, d.failed_sign_ins, d.lockouts])}
          />
        }
      >
        <LineChart
          height={300}
          skipAnimation
          xAxis={[{ scaleType: 'point', data: summary.daily.map((d) => dayLabel(d.date)) }]}
          yAxis={[{ tickMinStep: 1, min: 0 }]}
          series={[
            { data: summary.daily.map((d) => d.sign_ins), label: t('series.signIns'), color: '#1565c0', showMark: false, curve: 'linear' },
            { data: summary.daily.map((d) => d.failed_sign_ins), label: t('series.failed'), color: '#ef6c00', showMark: false, curve: 'linear' },
            { data: summary.daily.map((d) => d.lockouts), label: t('series.lockouts'), color: '#c62828', showMark: false, curve: 'linear' },
          ]}
        />
      </ChartCard>

      <ChartCard
        title={t('charts.features')}
        table={
          <FiguresTable
            caption={t('charts.features')}
            head={[t('table.feature'), t('table.uses')]}
            rows={summary.feature_usage.map((f) => [f.display_name, f.uses])}
          />
        }
      >
        {summary.feature_usage.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
            {t('charts.noUse')}
          </Typography>
        ) : (
          <BarChart
            layout="horizontal"
            skipAnimation
            height={Math.max(160, 36 * summary.feature_usage.length + 60)}
            yAxis={[{ scaleType: 'band', data: summary.feature_usage.map((f) => f.display_name), width: 150 }]}
            xAxis={[{ tickMinStep: 1, min: 0 }]}
            series={[{ data: summary.feature_usage.map((f) => f.uses), label: t('table.uses'), color: '#2e7d32' }]}
            hideLegend
          />
        )}
      </ChartCard>
    </>
  );
}

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontSize: 28, fontWeight: 700, lineHeight: 1.3 }}>
        {value}
      </Typography>
      {note && (
        <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0 }}>
          {note}
        </Typography>
      )}
    </Paper>
  );
}

/** A chart with its figures as a table behind a disclosure (what a screen reader reads). */
function ChartCard({ title, children, table }: { title: string; children: ReactNode; table: ReactNode }) {
  const { t } = useTranslation('operations');
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, mb: 3 }}>
      <Typography id={headingId} variant="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box>{children}</Box>
      <Box component="details" sx={{ mt: 1, '& summary': { cursor: 'pointer', color: 'primary.main', fontWeight: 500 } }}>
        <summary>{t('showFigures')}</summary>
        {table}
      </Box>
    </Paper>
  );
}

function FiguresTable({ caption, head, rows }: { caption: string; head: string[]; rows: Array<Array<string | number>> }) {
  return (
    <Box sx={{ overflowX: 'auto', mt: 1 }}>
      <Table size="small">
        <Box component="caption" sx={visuallyHidden}>
          {caption}
        </Box>
        <TableHead>
          <TableRow>
            {head.map((h, i) => (
              <TableCell key={h} align={i === 0 ? 'left' : 'right'}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={String(row[0])}>
              {row.map((cell, i) => (
                <TableCell key={i} align={i === 0 ? 'left' : 'right'} component={i === 0 ? 'th' : 'td'} scope={i === 0 ? 'row' : undefined}>
                  {cell}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
