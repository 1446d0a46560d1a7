import { useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { SurveyDto } from '@healthbook/shared/contracts/surveys';
import { SURVEY_ROUTES, needsCrisisHelp, surveyOfRoute, type SurveyAnswers, type SurveyKey } from '@healthbook/shared/surveys';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSurvey } from '../api/get-survey';
import { useSubmitSurvey } from '../api/submit-survey';
import { useLanguage, useNextSteps } from '../hooks/use-next-steps';
import { CrisisHelp } from './crisis-help';
import { SurveyQuestion } from './survey-question';

/** What the page is opened with: the PHQ-2's answers when a positive PHQ-2 leads on to the PHQ-9. */
export interface TakeSurveyState {
  from?: SurveyKey;
  prefill?: SurveyAnswers;
}

/** Whether crisis help must show now: the published instruments' safety items (PHQ-9 item 9), as the server decides. */

/** mental-health-survey/{general, profile-questionnaire, phq-2, phq-7, phq-9}: taking a survey. An unknown one goes to the hub. */
export default function TakeSurveyPage() {
  const { clientId } = useOrganizationContext();
  const { survey: route } = useParams();
  const location = useLocation();
  const key = surveyOfRoute(route);
  if (!key) return <Navigate replace to={paths.surveys(clientId)} />;
  // A new attempt (new answers, a new attempt id) for every visit, also from one survey to the next.
  return <SurveyForm key={`${key}:${location.key}`} surveyKey={key} state={(location.state as TakeSurveyState | null) ?? {}} />;
}

function SurveyForm({ surveyKey, state }: { surveyKey: SurveyKey; state: TakeSurveyState }) {
  const { t } = useTranslation('surveys');
  const { clientId } = useOrganizationContext();
  const survey = useSurvey(surveyKey, useLanguage());

  if (survey.isPending) return <DelayedLoader />;
  if (survey.isError)
    return (
      <HubPage pageTitle={t('take.loadFailedTitle')} back={{ to: paths.surveys(clientId), label: t('backToSurveys') }}>
        <Typography role="alert">{t('loadFailed')}</Typography>
      </HubPage>
    );
  return <SurveyQuestions survey={survey.data} state={state} />;
}

function SurveyQuestions({ survey, state }: { survey: SurveyDto; state: TakeSurveyState }) {
  const { t } = useTranslation('surveys');
  const { org, clientId } = useOrganizationContext();
  const navigate = useNavigate();
  const theme = useTheme();
  const onePerPage = useMediaQuery(theme.breakpoints.down('sm'));
  const next = useNextSteps();
  const submit = useSubmitSurvey();
  const items = survey.items;
  const ids = new Set(items.map((i) => i.id));

  const [answers, setAnswers] = useState<SurveyAnswers>(() => Object.fromEntries(Object.entries(state.prefill ?? {}).filter(([id]) => ids.has(id))));
  const [attemptId, setAttemptId] = useState(() => crypto.randomUUID());
  const [step, setStep] = useState(() => Math.max(0, items.findIndex((i) => !(i.id in answers))));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const questionsRef = useRef<HTMLDivElement>(null);
  const prefilled = state.from === 'phq-2' && survey.key === 'phq-9';

  const answer = (id: string, value: number) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    setErrors(({ [id]: _, ...rest }) => rest);
  };

  const focusItem = (id: string) => {
    // After the render that shows it: its first radio button.
    requestAnimationFrame(() => questionsRef.current?.querySelector<HTMLInputElement>(`[data-item="${id}"] input`)?.focus());
  };

  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    const first = items.findIndex((i) => i.id in found);
    if (first >= 0) {
      setStep(first);
      focusItem(items[first]!.id);
    }
  };

  const send = () => {
    setGeneral(null);
    const missing = Object.fromEntries(items.filter((i) => !i.optional && !(i.id in answers)).map((i) => [i.id, t('take.required')]));
    if (Object.keys(missing).length) return showErrors(missing);
    submit.mutate(
      { survey: survey.key, attemptId, answers },
      {
        onSuccess: (result) => {
          if (result.next) {
            // A positive PHQ-2 leads straight on to the PHQ-9, with the two answers it shares.
            void navigate(paths.survey(clientId, SURVEY_ROUTES[result.next]), { state: { from: survey.key, prefill: answers } satisfies TakeSurveyState });
          } else {
            void navigate(paths.surveyResult(clientId, result.route, result.id));
          }
        },
        onError: (error) => {
          const found: Record<string, string> = {};
          const other: string[] = [];
          if (error instanceof ApiError && error.status === 400 && error.data && typeof error.data === 'object') {
            for (const [field, value] of Object.entries(error.data as Record<string, unknown>)) {
              const text = Array.isArray(value) ? value.join(' ') : String(value);
              const item = field.startsWith('answers.') ? field.slice('answers.'.length) : null;
              if (item && ids.has(item)) found[item] = text;
              else other.push(text);
            }
            // These answers were kept already: a new attempt lets the person send them again if they mean to.
            if ('attempt_id' in (error.data as object)) setAttemptId(crypto.randomUUID());
          }
          if (Object.keys(found).length) showErrors(found);
          setGeneral(other.length ? other.join(' ') : Object.keys(found).length ? null : t('submitFailed'));
        },
      },
    );
  };

  // The safety rule while answering, on the questions as the server sent them (any survey may mark an item).
  const crisis = needsCrisisHelp(survey, answers);
  const current = items[step]!;
  const last = step === items.length - 1;
  const answeredCount = items.filter((i) => i.id in answers).length;

  return (
    <HubPage pageTitle={survey.title} intro={survey.summary} maxWidth={760} back={{ to: paths.surveys(clientId), label: t('backToSurveys') }}>
      {prefilled && (
        <Paper variant="outlined" role="note" sx={{ p: { xs: 2, sm: 2.5 }, mb: 3, borderRadius: 3, borderColor: 'primary.main' }}>
          <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{t('take.fromPhq2Title')}</Typography>
          <Typography>{t('take.fromPhq2Text')}</Typography>
        </Paper>
      )}
      <div aria-live="polite">
        {crisis && <CrisisHelp emergencyNumber={org.emergency_number} crisisLines={org.crisis_lines} chatTo={next.chat} whileAnswering />}
      </div>

      <Box component="form" noValidate onSubmit={(e) => { e.preventDefault(); send(); }}>
        <Typography sx={{ mb: 2, fontSize: '1.05rem' }}>{survey.instructions}</Typography>
        <div ref={questionsRef}>
          {onePerPage ? (
            <Box>
              <Typography id="survey-progress" color="text.secondary" sx={{ mb: 1 }}>
                {t('take.progress', { current: step + 1, total: items.length })}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={((step + 1) / items.length) * 100}
                aria-label={t('take.progressLabel', { answered: answeredCount, total: items.length })}
                sx={{ mb: 3, height: 8, borderRadius: 4 }}
              />
              <Paper variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
                <SurveyQuestion key={current.id} item={current} number={step + 1} value={answers[current.id]} onChange={(v) => answer(current.id, v)} error={errors[current.id]} />
              </Paper>
            </Box>
          ) : (
            <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
              {items.map((item, index) => (
                <Paper component="li" key={item.id} variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 3 }}>
                  <SurveyQuestion item={item} number={index + 1} value={answers[item.id]} onChange={(v) => answer(item.id, v)} error={errors[item.id]} />
                </Paper>
              ))}
            </Box>
          )}
        </div>

        {general && (
          <Typography role="alert" color="error" sx={{ mt: 2 }}>
            {general}
          </Typography>
        )}

        <Stack direction="row" spacing={1.5} sx={{ mt: 3, justifyContent: onePerPage ? 'space-between' : 'flex-start' }}>
          {onePerPage && (
            <Button variant="outlined" disabled={step === 0} onClick={() => setStep((s) => Math.max(0, s - 1))}>
              {t('take.back')}
            </Button>
          )}
          {/* Distinct keys: the Next button clicked on the second-last question must not become the submit button under the pointer (it would send at once). */}
          {onePerPage && !last ? (
            <Button key="next" variant="contained" onClick={() => setStep((s) => Math.min(items.length - 1, s + 1))}>
              {t('take.next')}
            </Button>
          ) : (
            <Button key="submit" type="submit" variant="contained" disabled={submit.isPending}>
              {submit.isPending ? t('take.sending') : t('take.submit')}
            </Button>
          )}
        </Stack>
      </Box>

      <Box component="footer" sx={{ mt: 5, pt: 2, borderTop: 1, borderColor: 'divider' }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {survey.note}
        </Typography>
        {survey.attribution && (
          <Typography variant="body2" color="text.secondary">
            {survey.attribution}
          </Typography>
        )}
      </Box>
    </HubPage>
  );
}
