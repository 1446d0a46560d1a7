import { useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { CHOICE_LISTS } from '@healthbook/shared/records/choices';
import { displayUnit, toDisplay, type Measure } from '@healthbook/shared/records/units';
import { useRecordList } from '../api/list-records';
import { formatIsoDate, useRecordText } from '../../../lib/record-text';

const MEASURES = CHOICE_LISTS.measure;

/**
 * Biometrics: a trend chart per measure, in the reader's units (imperial_units of the profile),
 * from the latest hundred measurements; each chart's figures also as a table.
 */
export function BiometricsTrends({ imperial }: { imperial: boolean }) {
  const { t, locale } = useRecordText();
  const list = useRecordList('biometrics', { page_size: 100, ordering: '-measured_on' });
  const records = list.data?.results ?? [];
  const withData = MEASURES.filter((m) => records.some((r) => r.measure === m));
  const [chosen, setChosen] = useState<Measure | null>(null);
  const measure = chosen && withData.includes(chosen) ? chosen : (withData[0] ?? null);
  if (!list.data || !measure) return null;

  const points = records
    .filter((r) => r.measure === measure && typeof r.value === 'number' && typeof r.measured_on === 'string')
    .map((r) => ({ date: r.measured_on as string, value: toDisplay(measure, r.value as number, imperial), diastolic: (r.diastolic as number | null) ?? null }))
    .sort((a, b) => a.date.localeCompare(b.date));
  const unit = displayUnit(measure, imperial).unit;
  const name = t(`records:choices.measure.${measure}`);
  const dates = points.map((p) => formatIsoDate(p.date, locale));
  const shortDate = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });

  return (
    <Paper variant="outlined" component="section" aria-labelledby="biometrics-trends" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Typography id="biometrics-trends" variant="h2" sx={{ mb: 1 }}>
        {t('healthRecords:biometrics.trends')}
      </Typography>
      <Tabs value={measure} onChange={(_e, v: Measure) => setChosen(v)} variant="scrollable" allowScrollButtonsMobile aria-label={t('healthRecords:biometrics.trends')}>
        {withData.map((m) => (
          <Tab key={m} value={m} label={t(`records:choices.measure.${m}`)} id={`trend-tab-${m}`} aria-controls="trend-panel" />
        ))}
      </Tabs>
      <Box id="trend-panel" role="tabpanel" aria-labelledby={`trend-tab-${measure}`} sx={{ pt: 2 }}>
        <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
          {t('healthRecords:biometrics.trend', { measure: name })} ({unit})
        </Typography>
        <LineChart
          height={260}
          skipAnimation
          xAxis={[{ scaleType: 'utc', data: points.map((p) => new Date(`${p.date}T00:00:00Z`)), valueFormatter: (d: Date) => shortDate.format(d), tickNumber: 6 }]}
          series={
            measure === 'blood_pressure'
              ? [
                  { data: points.map((p) => p.value), label: t('healthRecords:biometrics.systolic'), curve: 'linear', showMark: points.length <= 24 },
                  { data: points.map((p) => p.diastolic), label: t('healthRecords:biometrics.diastolic'), curve: 'linear', showMark: points.length <= 24 },
                ]
              : [{ data: points.map((p) => p.value), label: `${name} (${unit})`, curve: 'linear', showMark: points.length <= 24 }]
          }
        />
        <Box component="details" sx={{ '& summary': { cursor: 'pointer', color: 'primary.main', fontWeight: 500 } }}>
          <summary>{t('healthRecords:biometrics.showTable')}</summary>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{t('healthRecords:biometrics.date')}</TableCell>
                  <TableCell align="right">{measure === 'blood_pressure' ? t('healthRecords:biometrics.systolic') : name} ({unit})</TableCell>
                  {measure === 'blood_pressure' && <TableCell align="right">{t('healthRecords:biometrics.diastolic')} ({unit})</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {points.map((p, i) => (
                  <TableRow key={`${p.date}-${i}`}>
                    <TableCell component="th" scope="row">
                      {dates[i]}
                    </TableCell>
                    <TableCell align="right">{new Intl.NumberFormat(locale).format(p.value)}</TableCell>
                    {measure === 'blood_pressure' && <TableCell align="right">{p.diastolic ?? ''}</TableCell>}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </Box>
      </Box>
    </Paper>
  );
}
