import { useId } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { LineChart } from '@mui/x-charts/LineChart';
import { useDrawingArea, useYScale } from '@mui/x-charts/hooks';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { formatLabResult, formatReferenceRange } from '@healthbook/shared/records/format';
import { convertLabValue, labTestKey } from '@healthbook/shared/records/units';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { categoryName, formatIsoDate, useRecordText } from '../../../lib/record-text';
import { useRecordList } from '../api/list-records';
import { LabFlagChip } from './lab-flag-chip';
import { TermList } from '../../../components/term-list';

/** The results read per trend: the newest hundred of the test. */
const TREND_SIZE = 100;

interface Point {
  record: HealthRecord;
  date: string;
  /** In the trend's unit; null when the unit could not be converted. */
  value: number | null;
  entered: number;
}

/**
 * /health-record/lab/trend?test=… — the results of one test over time: a chart in one unit (the
 * latest result's; others converted only where the conversion is known for the test) with the
 * reference range shaded, and the results as a table, its text alternative.
 */
export default function LabTrendPage() {
  const [params] = useSearchParams();
  const { clientId } = useOrganizationContext();
  const test = (params.get('test') ?? '').trim();
  if (!test) return <Navigate to={paths.recordList(clientId, 'lab')} replace />;
  return <LabTrend key={test} test={test} />;
}

function LabTrend({ test }: { test: string }) {
  const { clientId } = useOrganizationContext();
  const { t, locale } = useRecordText();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'), { noSsr: true });
  const chartId = useId();
  const tableId = useId();
  const list = useRecordList('lab', { page_size: TREND_SIZE, ordering: '-test_date', search: test });
  const key = labTestKey(test);
  const results = (list.data?.results ?? []).filter((r) => typeof r.test === 'string' && labTestKey(r.test) === key && typeof r.result === 'number');

  // The trend's unit and range: the latest result's.
  const latest = results[0];
  const unit = typeof latest?.units === 'string' ? latest.units.trim() : '';
  const inUnit = (r: HealthRecord, value: unknown) => (typeof value === 'number' ? convertLabValue(test, value, typeof r.units === 'string' ? r.units : '', unit) : null);
  const points: Point[] = results
    .filter((r) => typeof r.test_date === 'string')
    .map((r) => ({ record: r, date: r.test_date as string, value: inUnit(r, r.result), entered: r.result as number }))
    .sort((a, b) => a.date.localeCompare(b.date));
  const charted = points.filter((p) => p.value !== null);
  const low = latest ? inUnit(latest, latest.range_low) : null;
  const high = latest ? inUnit(latest, latest.range_high) : null;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const shortDate = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const values = charted.map((p) => p.value!).concat(low ?? [], high ?? []);
  const padding = values.length ? (Math.max(...values) - Math.min(...values)) * 0.15 || Math.abs(values[0]!) * 0.1 || 1 : 1;
  const title = t('healthRecords:labTrend.title', { test: latest?.test ?? test });
  // The table's rows, newest first: the result as entered (and in the trend's unit when converted).
  const rows = [...points].reverse().map((p) => {
    const entered = formatLabResult(locale, p.record);
    const enteredUnit = typeof p.record.units === 'string' ? p.record.units.trim() : '';
    const converted = p.value !== null && enteredUnit && unit && enteredUnit !== unit;
    return {
      id: p.record.id,
      date: formatIsoDate(p.date, locale),
      result: (
        <>
          {converted ? t('healthRecords:labTrend.converted', { value: `${number.format(p.value!)} ${unit}`, entered }) : entered}
          {p.value === null && (
            <Typography variant="caption" component="span" sx={{ display: 'block' }} color="text.secondary">
              {t('healthRecords:labTrend.notCharted', { unit: enteredUnit || '—', target: unit || '—' })}
            </Typography>
          )}
        </>
      ),
      range: formatReferenceRange(locale, p.record),
      flag: <LabFlagChip record={p.record} />,
    };
  });

  return (
    <HubPage pageTitle={title} maxWidth={960} back={{ to: paths.recordList(clientId, 'lab'), label: categoryName(t, 'lab', true) }}>
      {list.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={title} />
        </Box>
      )}
      {list.isError && <Alert severity="error">{t('healthRecords:loadFailed')}</Alert>}
      {list.data && results.length === 0 && <Alert severity="info">{t('healthRecords:labTrend.none')}</Alert>}
      {list.data && results.length > 0 && (
        <>
          <Paper variant="outlined" component="figure" aria-labelledby={chartId} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 }, mb: 3, mx: 0 }}>
            <Typography id={chartId} component="figcaption" variant="body2" color="text.secondary">
              {unit ? t('healthRecords:labTrend.chart', { test: latest!.test as string, unit }) : t('healthRecords:labTrend.chartNoUnit', { test: latest!.test as string })}
            </Typography>
            {charted.length > 0 && (
              <LineChart
                height={280}
                skipAnimation
                hideLegend
                xAxis={[{ scaleType: 'utc', data: charted.map((p) => new Date(`${p.date}T00:00:00Z`)), valueFormatter: (d: Date) => shortDate.format(d), tickNumber: 5 }]}
                yAxis={[{ min: Math.min(...values) - padding, max: Math.max(...values) + padding, valueFormatter: (v: number) => number.format(v) }]}
                series={[{ data: charted.map((p) => p.value), label: unit ? `${latest!.test as string} (${unit})` : (latest!.test as string), curve: 'linear', showMark: true, valueFormatter: (v) => (v === null ? '' : number.format(v)) }]}
              >
                {(low !== null || high !== null) && <RangeBand low={low} high={high} color={alpha(theme.palette.success.main, 0.14)} />}
              </LineChart>
            )}
            {points.length === 1 && (
              <Typography variant="body2" color="text.secondary">
                {t('healthRecords:labTrend.single')}
              </Typography>
            )}
          </Paper>

          <Paper variant="outlined" component="section" aria-labelledby={tableId} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
            <Typography id={tableId} variant="h2" sx={{ mb: 1 }}>
              {t('healthRecords:labTrend.table', { test: latest!.test as string })}
            </Typography>
            {wide ? (
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('records:fields.test_date')}</TableCell>
                    <TableCell align="right">{t('records:readings.result')}</TableCell>
                    <TableCell>{t('records:readings.reference_range')}</TableCell>
                    <TableCell>{t('records:readings.flag')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row.id}>
                      <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                        {row.date}
                      </TableCell>
                      <TableCell align="right">{row.result}</TableCell>
                      <TableCell>{row.range}</TableCell>
                      <TableCell>{row.flag}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ) : (
              // On a phone, a result a card: the table's four columns do not fit.
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
                {rows.map((row) => (
                  <Box component="li" key={row.id} sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
                    <Typography variant="subtitle2" component="p">
                      {row.date}
                    </Typography>
                    <TermList
                      terms={(
                        [
                          ['records:readings.result', row.result],
                          ['records:readings.reference_range', row.range],
                          ['records:readings.flag', row.flag],
                        ] as const
                      ).map(([label, value]) => ({ key: label, label: t(label), value }))}
                    />
                  </Box>
                ))}
              </Box>
            )}
          </Paper>
        </>
      )}
    </HubPage>
  );
}

/** The reference range as a band across the chart (one end open: to the chart's edge). */
function RangeBand({ low, high, color }: { low: number | null; high: number | null; color: string }) {
  const area = useDrawingArea();
  const y = useYScale();
  const top = high !== null ? (y(high) ?? area.top) : area.top;
  const bottom = low !== null ? (y(low) ?? area.top + area.height) : area.top + area.height;
  const from = Math.max(area.top, Math.min(top, bottom));
  const to = Math.min(area.top + area.height, Math.max(top, bottom));
  if (to <= from) return null;
  return <rect x={area.left} y={from} width={area.width} height={to - from} fill={color} pointerEvents="none" data-testid="reference-range-band" />;
}
