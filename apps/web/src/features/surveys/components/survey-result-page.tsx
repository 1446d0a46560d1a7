import { useId } from 'react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SurveyResult } from '@healthbook/shared/contracts/surveys';
import { SURVEY_ROUTES, surveyOfRoute, type SurveyKey } from '@healthbook/shared/surveys';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSurveyResult } from '../api/get-survey-result';
import { useSurveyResults } from '../api/list-survey-results';
import { useLanguage, useNextSteps } from '../hooks/use-next-steps';
import { formatDateTime } from '../format';
import { CrisisHelp } from './crisis-help';
import { NextSteps } from './next-steps';

/**
 * health-action/result?action=<survey route>[&id=<result>]: a result (without id, the latest of
 * that survey). Without an action, or with an unknown one, the survey hub.
 */
export default function SurveyResultPage() {
  const { clientId } = useOrganizationContext();
  const [params] = useSearchParams();
  const key = surveyOfRoute(params.get('action'));
  const rawId = params.get('id');
  const id = rawId && /^[1-9][0-9]{0,9}$/.test(rawId) ? Number(rawId) : null;
  if (!key) return <Navigate replace to={paths.surveys(clientId)} />;
  return <ResultLoader key={`${key}:${id}`} surveyKey={key} id={id} />;
}

function ResultLoader({ surveyKey, id }: { surveyKey: SurveyKey; id: number | null }) {
  const { t } = useTranslation('surveys');
  const { clientId } = useOrganizationContext();
  const language = useLanguage();
  const one = useSurveyResult(id, language);
  const latest = useSurveyResults(surveyKey, language, id === null);
  const query = id === null ? latest : one;
  if (query.isPending) return <DelayedLoader />;
  const result = id === null ? latest.data?.[0] : one.data;
  if (query.isError || !result) {
    const notFound = !query.isError;
    return (
      <HubPage pageTitle={t('result.pageTitle')} back={{ to: paths.surveys(clientId), label: t('backToSurveys') }}>
        <Typography sx={{ mb: 2 }} role={notFound ? undefined : 'alert'}>
          {notFound ? t('result.none') : t('result.loadFailed')}
        </Typography>
        <Button component={RouterLink} to={paths.survey(clientId, SURVEY_ROUTES[surveyKey])} variant="contained">
          {t('result.takeIt')}
        </Button>
      </HubPage>
    );
  }
  return <ResultView result={result} />;
}

export function ResultView({ result }: { result: SurveyResult }) {
  const { t } = useTranslation('surveys');
  const { org, clientId } = useOrganizationContext();
  const language = useLanguage();
  const steps = useNextSteps();
  const scoreId = useId();
  const answersId = useId();
  const meansId = useId();

  return (
    <HubPage pageTitle={t('result.pageTitleOf', { title: result.title })} title={null} maxWidth={820} back={{ to: paths.surveys(clientId), label: t('backToSurveys') }}>
      {/* Someone who may be at risk sees help first, whatever the total; the result still follows. */}
      {result.safety && <CrisisHelp emergencyNumber={org.emergency_number} crisisLines={org.crisis_lines} chatTo={steps.chat} />}

      <Typography variant="h1" sx={{ mb: 0.5 }}>
        {t('result.title', { title: result.title })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('result.taken', { date: formatDateTime(result.submitted_at, language) })}
      </Typography>

      <Paper component="section" aria-labelledby={scoreId} variant="outlined" data-testid="survey-score" sx={{ p: { xs: 2.5, sm: 3 }, mb: 3, borderRadius: 3 }}>
        <Typography variant="h2" id={scoreId} sx={{ fontSize: '1rem', fontWeight: 600, color: 'text.secondary', mb: 1 }}>
          {t('result.scoreTitle')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 3 }} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
          <Typography sx={{ fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.1 }}>
            {t('result.score', { score: result.score, max: result.max_score })}
          </Typography>
          <Typography sx={{ fontSize: '1.2rem', fontWeight: 600 }}>{result.band.label}</Typography>
        </Stack>
        <Typography>{result.band.meaning}</Typography>
        {result.safety && (
          <Typography sx={{ mt: 1, fontWeight: 600 }}>{t('result.safetyNote')}</Typography>
        )}
        {result.higher_is_better && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('result.higherIsBetter')}
          </Typography>
        )}
      </Paper>

      {result.next && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, mb: 3, borderRadius: 3, borderColor: 'primary.main' }}>
          <Typography sx={{ mb: 1.5 }}>{t('result.continueText')}</Typography>
          <Button
            component={RouterLink}
            to={paths.survey(clientId, SURVEY_ROUTES[result.next])}
            // The answers the next survey shares (the PHQ-9 begins with the PHQ-2's two questions).
            state={{ from: result.survey, prefill: Object.fromEntries(result.answers.flatMap((a) => (a.value === null ? [] : [[a.item, a.value]]))) }}
            variant="contained"
          >
            {t('result.continue')}
          </Button>
        </Paper>
      )}

      <Box component="section" aria-labelledby={meansId} sx={{ mb: 4 }}>
        <Typography variant="h2" id={meansId} sx={{ mb: 1 }}>
          {t('result.notMeansTitle')}
        </Typography>
        <Typography sx={{ mb: 1 }}>{result.note}</Typography>
        <Typography>{t('result.notMeansText')}</Typography>
      </Box>

      <NextSteps level={result.band.level} />

      <Box component="section" aria-labelledby={answersId} sx={{ mb: 4 }}>
        <Typography variant="h2" id={answersId} sx={{ mb: 1.5 }}>
          {t('result.answersTitle')}
        </Typography>
        <Box component="ol" sx={{ pl: 3, m: 0, display: 'grid', gap: 1.25 }}>
          {result.answers.map((a) => (
            <li key={a.item}>
              <Typography>{a.text}</Typography>
              <Typography color="text.secondary" sx={{ fontWeight: 600 }}>
                {a.label ?? t('result.notAnswered')}
              </Typography>
            </li>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {t('result.submittedBy', { name: result.submitted_by })}
        </Typography>
      </Box>

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 4 }}>
        <Button component={RouterLink} to={paths.assessments(clientId)} variant="outlined">
          {t('result.toHistory')}
        </Button>
        <Button component={RouterLink} to={paths.survey(clientId, result.route)} variant="text">
          {t('result.again')}
        </Button>
      </Stack>

      {result.attribution && (
        <Typography variant="body2" color="text.secondary" component="footer" sx={{ pt: 2, borderTop: 1, borderColor: 'divider' }}>
          {result.attribution}
        </Typography>
      )}
      <Typography variant="body2" sx={{ mt: 2 }}>
        <Link component={RouterLink} to={paths.surveys(clientId)}>
          {t('backToSurveys')}
        </Link>
      </Typography>
    </HubPage>
  );
}
