import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSurveys } from '../api/list-surveys';
import { formatDate } from '../format';
import { useLanguage, useNextSteps } from '../hooks/use-next-steps';
import { crisisLineName, telHref } from '../../../components/call-button';

/** mental-health-survey: the surveys, each with your last result; your assessments; where to get help now. */
export default function SurveyHubPage() {
  const { t } = useTranslation('surveys');
  const { org, clientId } = useOrganizationContext();
  const language = useLanguage();
  const surveys = useSurveys(language);
  const steps = useNextSteps();
  const listId = useId();
  const helpId = useId();

  return (
    <HubPage pageTitle={t('hub.pageTitle')} intro={t('hub.intro')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 3, alignItems: { sm: 'center' } }}>
        <Button component={RouterLink} to={paths.assessments(clientId)} variant="outlined">
          {t('hub.toAssessments')}
        </Button>
      </Stack>

      <Paper component="section" aria-labelledby={helpId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 4, borderRadius: 3 }}>
        <Typography variant="h2" id={helpId} sx={{ mb: 1 }}>
          {t('hub.noteTitle')}
        </Typography>
        <Typography sx={{ mb: 1 }}>{t('hub.noteScreening')}</Typography>
        <Typography sx={{ mb: 1 }}>
          {t('hub.noteHelpNow')}{' '}
          {org.crisis_lines.map((line, i) => (
            <span key={line.number}>
              {i > 0 && ', '}
              <Link href={telHref(line.number)}>{t('hub.line', { name: crisisLineName(line, language), number: line.number })}</Link>
            </span>
          ))}
          {org.crisis_lines.length > 0 && '. '}
          {t('hub.noteEmergency')}{' '}
          <Link href={telHref(org.emergency_number)} sx={{ fontWeight: 700 }}>
            {org.emergency_number}
          </Link>
          .
        </Typography>
        {(steps.chat || steps.help) && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 2 }}>
            {steps.chat && (
              <Button component={RouterLink} to={steps.chat} variant="outlined">
                {t('hub.chat')}
              </Button>
            )}
            {steps.help && (
              <Button component={RouterLink} to={steps.help} variant="text">
                {t('hub.help')}
              </Button>
            )}
          </Stack>
        )}
      </Paper>

      <Box component="section" aria-labelledby={listId} sx={{ mb: 4 }}>
        <Typography variant="h2" id={listId} sx={{ mb: 1.5 }}>
          {t('hub.listTitle')}
        </Typography>
        {surveys.isPending ? (
          <DelayedLoader />
        ) : surveys.isError ? (
          <Typography role="alert">{t('loadFailed')}</Typography>
        ) : (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {surveys.data.map((survey) => (
              <Paper component="li" key={survey.key} variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 3, display: 'flex', flexDirection: 'column' }}>
                <Typography variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 600, mb: 0.5 }}>
                  {survey.title}
                </Typography>
                <Typography color="text.secondary" sx={{ mb: 1.5 }}>
                  {survey.summary}
                </Typography>
                <Typography variant="body2" sx={{ mb: 2, flex: 1 }}>
                  {survey.last ? (
                    <>
                      {t('hub.last', { date: formatDate(survey.last.submitted_at, language), score: survey.last.score, max: survey.max_score, band: survey.last.band.label })}{' '}
                      <Link component={RouterLink} to={paths.surveyResult(clientId, survey.route, survey.last.id)} aria-label={t('hub.seeResultOf', { title: survey.title })}>
                        {t('hub.seeResult')}
                      </Link>
                    </>
                  ) : (
                    t('hub.notYet')
                  )}
                </Typography>
                <Box>
                  <Button component={RouterLink} to={paths.survey(clientId, survey.route)} variant="contained" aria-label={t('hub.takeOf', { title: survey.title })}>
                    {survey.last ? t('hub.takeAgain') : t('hub.take')}
                  </Button>
                </Box>
              </Paper>
            ))}
          </Box>
        )}
      </Box>

    </HubPage>
  );
}
