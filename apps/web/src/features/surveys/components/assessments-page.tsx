import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import type { SurveyResult, SurveySummary } from '@healthbook/shared/contracts/surveys';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSurvey } from '../api/get-survey';
import { useSurveys } from '../api/list-surveys';
import { useSurveyResults } from '../api/list-survey-results';
import { formatDate, formatDateTime } from '../format';
import { useLanguage } from '../hooks/use-next-steps';

/** health-record/assessments: the survey results kept in the record, per survey a trend chart and the history. */
export default function AssessmentsPage() {
  const { t } = useTranslation('surveys');
  const { clientId } = useOrganizationContext();
  const language = useLanguage();
  const surveys = useSurveys(language);
  const results = useSurveyResults(null, language);

  const body = () => {
    if (surveys.isPending || results.isPending) return <DelayedLoader />;
    if (surveys.isError || results.isError) return <Typography role="alert">{t('loadFailed')}</Typography>;
    const taken = surveys.data.filter((s) => results.data.some((r) => r.survey === s.key));
    if (taken.length === 0)
      return (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography sx={{ mb: 2 }}>{t('assessments.none')}</Typography>
          <Button component={RouterLink} to={paths.surveys(clientId)} variant="contained">
            {t('assessments.toSurveys')}
          </Button>
        </Paper>
      );
    return (
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: 'minmax(0, 1fr)' }}>
        {taken.map((survey) => (
          <SurveyHistory key={survey.key} survey={survey} results={results.data.filter((r) => r.survey === survey.key)} />
        ))}
      </Box>
    );
  };

  return (
    <HubPage
      pageTitle={t('assessments.pageTitle')}
      intro={t('assessments.intro')}
      back={{ to: paths.healthRecords(clientId), label: t('assessments.backToRecord') }}
    >
      <Typography sx={{ mb: 3 }}>
        <Link component={RouterLink} to={paths.surveys(clientId)}>
          {t('assessments.toSurveys')}
        </Link>
      </Typography>
      {body()}
    </HubPage>
  );
}

function SurveyHistory({ survey, results }: { survey: SurveySummary; results: SurveyResult[] }) {
  const { t } = useTranslation('surveys');
  const { clientId } = useOrganizationContext();
  const language = useLanguage();
  const headingId = useId();
  const tableCaptionId = useId();
  const detail = useSurvey(survey.key, language);
  const oldestFirst = [...results].reverse();
  // Where the bands change (the lowest band starts at 0): dashed lines on the chart.
  const edges = (detail.data?.bands ?? []).map((b) => b.min).filter((min) => min > 0);
  const shortDate = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' });

  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, minWidth: 0 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 0.5 }}>
        {survey.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t(survey.higher_is_better ? 'assessments.scaleBetterHigh' : 'assessments.scale', { max: survey.max_score })}
      </Typography>

      <Box role="img" aria-label={t('assessments.chartLabel', { title: survey.title })} sx={{ mb: 1 }}>
          <LineChart
            height={240}
            skipAnimation
            hideLegend
            margin={{ left: 0, right: 36 }}
            xAxis={[{ scaleType: 'point', data: oldestFirst.map((r) => r.submitted_at), valueFormatter: (iso: string) => shortDate.format(new Date(iso)) }]}
            yAxis={[{ min: 0, max: survey.max_score, width: 36 }]}
            series={[{ data: oldestFirst.map((r) => r.score), label: survey.title, curve: 'linear', showMark: true }]}
          >
            {edges.map((y) => (
              <ChartsReferenceLine key={y} y={y} lineStyle={{ strokeDasharray: '4 4', stroke: '#8a8a8a' }} />
            ))}
          </LineChart>
        </Box>
      {oldestFirst.length === 1 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('assessments.oneResult')}
        </Typography>
      )}
      {edges.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('assessments.edges', { edges: edges.join(', ') })}
        </Typography>
      )}

      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-describedby={tableCaptionId}>
          <caption id={tableCaptionId} style={{ captionSide: 'top', textAlign: 'left', padding: '0 0 8px' }}>
            {t('assessments.tableCaption', { title: survey.title })}
          </caption>
          <TableHead>
            <TableRow>
              <TableCell>{t('assessments.date')}</TableCell>
              <TableCell align="right">{t('assessments.score')}</TableCell>
              <TableCell>{t('assessments.band')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('assessments.by')}</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  {t('assessments.open')}
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {results.map((r) => (
              <TableRow key={r.id}>
                <TableCell component="th" scope="row">
                  {formatDate(r.submitted_at, language)}
                </TableCell>
                <TableCell align="right">{t('result.score', { score: r.score, max: r.max_score })}</TableCell>
                <TableCell>{r.band.label}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{r.submitted_by}</TableCell>
                <TableCell>
                  <Link component={RouterLink} to={paths.surveyResult(clientId, r.route, r.id)} aria-label={t('assessments.openOf', { date: formatDateTime(r.submitted_at, language) })}>
                    {t('assessments.open')}
                  </Link>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}
