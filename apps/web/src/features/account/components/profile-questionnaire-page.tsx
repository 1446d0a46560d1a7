import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ProfileQuestion } from '@healthbook/shared/contracts/users';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useCompleteWizardStep } from '../api/complete-wizard-step';
import { useProfileQuestions } from '../api/get-profile-questions';
import { useSaveProfileAnswer } from '../api/save-profile-answer';

/**
 * profile-questionnaire: the organisation's profile questions, one at a time with the progress;
 * each answer is saved as the user goes (only that answer), back and skip allowed. At the end the
 * wizard's profile_questions step is marked done and the thank-you page follows.
 */
export default function ProfileQuestionnairePage() {
  const { t, i18n } = useTranslation('account');
  const { clientId } = useOrganizationContext();
  const questions = useProfileQuestions(i18n.resolvedLanguage ?? 'en');
  const back = { to: paths.dashboard(clientId), label: t('profileQuestionnaire.backToDashboard') };
  if (questions.isPending) return <DelayedLoader />;
  if (questions.isError)
    return (
      <HubPage pageTitle={t('profileQuestionnaire.pageTitle')} back={back}>
        <Typography role="alert">{t('profileQuestionnaire.loadFailed')}</Typography>
      </HubPage>
    );
  return <Questionnaire questions={questions.data} />;
}

function Questionnaire({ questions }: { questions: ProfileQuestion[] }) {
  const { t } = useTranslation('account');
  const { clientId } = useOrganizationContext();
  const navigate = useNavigate();
  const save = useSaveProfileAnswer();
  const completeStep = useCompleteWizardStep();
  const [step, setStep] = useState(0);
  const [drafts, setDrafts] = useState<Record<number, string>>(() => Object.fromEntries(questions.map((q) => [q.id, q.answer ?? ''])));
  const [saved, setSaved] = useState<Record<number, string>>(() => Object.fromEntries(questions.map((q) => [q.id, q.answer ?? ''])));
  const [error, setError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);

  const finish = async () => {
    setFinishing(true);
    // Marking the step is quiet: a failure only leaves it open on the dashboard.
    await completeStep.mutateAsync('profile_questions').catch(() => undefined);
    void navigate(paths.profileQuestionnaireThankYou(clientId));
  };

  const total = questions.length;
  const question = questions[step];
  if (!question)
    return (
      <HubPage pageTitle={t('profileQuestionnaire.pageTitle')} intro={t('profileQuestionnaire.none')} maxWidth={640}>
        <Button variant="contained" onClick={() => void finish()} disabled={finishing}>
          {t('profileQuestionnaire.finish')}
        </Button>
      </HubPage>
    );

  const last = step === total - 1;
  const draft = drafts[question.id] ?? '';
  const advance = () => {
    setError(null);
    if (last) void finish();
    else setStep(step + 1);
  };

  const saveAndGo = () => {
    const value = question.question_type === 'text' ? draft.trim() : draft;
    if (value === (saved[question.id] ?? '')) return advance();
    save.mutate(
      { question: question.id, answer: value },
      {
        onSuccess: () => {
          setSaved((s) => ({ ...s, [question.id]: value }));
          advance();
        },
        onError: (e) => {
          const field = e instanceof ApiError && e.data && typeof e.data === 'object' ? (e.data as Record<string, unknown>)[`answers.${question.id}`] : undefined;
          setError(field ? (Array.isArray(field) ? field.join(' ') : String(field)) : t('profileQuestionnaire.saveFailed'));
        },
      },
    );
  };

  const skip = () => {
    setDrafts((d) => ({ ...d, [question.id]: saved[question.id] ?? '' }));
    advance();
  };

  const labelId = `profile-question-${question.id}`;
  const errorId = `${labelId}-error`;
  const busy = save.isPending || finishing;

  return (
    <HubPage pageTitle={t('profileQuestionnaire.pageTitle')} intro={t('profileQuestionnaire.intro')} maxWidth={640} back={{ to: paths.dashboard(clientId), label: t('profileQuestionnaire.backToDashboard') }}>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('profileQuestionnaire.progress', { current: step + 1, total })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={((step + 1) / total) * 100}
        aria-label={t('profileQuestionnaire.progress', { current: step + 1, total })}
        sx={{ mb: 3, height: 8, borderRadius: 4 }}
      />
      <Paper
        component="form"
        variant="outlined"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          saveAndGo();
        }}
        sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}
      >
        {question.question_type === 'text' ? (
          <TextField
            key={question.id}
            label={question.question}
            value={draft}
            onChange={(e) => setDrafts((d) => ({ ...d, [question.id]: e.target.value }))}
            multiline
            minRows={2}
            fullWidth
            error={Boolean(error)}
            helperText={error ?? t('profileQuestionnaire.textHint')}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
        ) : (
          <FormControl error={Boolean(error)} sx={{ width: '100%' }}>
            <Typography id={labelId} component="p" sx={{ fontWeight: 600, fontSize: '1.1rem', mb: 1 }}>
              {question.question}
            </Typography>
            <RadioGroup
              key={question.id}
              aria-labelledby={labelId}
              aria-describedby={error ? errorId : undefined}
              value={draft}
              onChange={(_, value) => setDrafts((d) => ({ ...d, [question.id]: value }))}
            >
              {question.options.map((o) => (
                <FormControlLabel key={o.key} value={o.key} control={<Radio />} label={o.value} />
              ))}
            </RadioGroup>
            {error && <FormHelperText id={errorId}>{error}</FormHelperText>}
          </FormControl>
        )}

        <Stack direction="row" spacing={1.5} sx={{ mt: 3, flexWrap: 'wrap', rowGap: 1.5 }}>
          <Button variant="outlined" disabled={step === 0 || busy} onClick={() => { setError(null); setStep(step - 1); }}>
            {t('profileQuestionnaire.back')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button variant="text" disabled={busy} onClick={skip}>
            {t('profileQuestionnaire.skip')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {last ? t('profileQuestionnaire.finish') : t('profileQuestionnaire.next')}
          </Button>
        </Stack>
      </Paper>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('profileQuestionnaire.savedAsYouGo')}
      </Typography>
    </HubPage>
  );
}
