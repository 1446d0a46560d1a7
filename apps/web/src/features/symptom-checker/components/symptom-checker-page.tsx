import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SymptomCheckInput, SymptomCheckResult, SymptomComplaint } from '@healthbook/shared/contracts/symptom-checker';
import { redFlagProgress, type FlagAnswer } from '@healthbook/shared/symptom-checker/questions';
import { matchesSearch } from '@healthbook/shared/symptom-checker/search';
import { DURATIONS, MAX_AGE, MIN_AGE, SEVERITIES, SEXES, type Duration, type Severity, type Sex } from '@healthbook/shared/symptom-checker/types';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useAssessSymptoms } from '../api/assess-symptoms';
import { useComplaints } from '../api/get-complaints';
import { ResultView } from './result-view';
import { SafetyNotice } from './safety-notice';

const STEPS = ['who', 'complaint', 'duration', 'severity', 'flags'] as const;
type Step = (typeof STEPS)[number];

interface Answers {
  age: string;
  sex: Sex | '';
  complaint: SymptomComplaint | null;
  duration: Duration | '';
  severity: Severity | '';
  flags: Record<string, FlagAnswer>;
}

const EMPTY: Answers = { age: '', sex: '', complaint: null, duration: '', severity: '', flags: {} };

type Person = { age: number; sex: Sex };
const isFor = (item: { sexes: Sex[] | null; min_age: number | null; max_age: number | null }, person: Person) =>
  (!item.sexes || item.sexes.includes(person.sex)) && (item.min_age === null || person.age >= item.min_age) && (item.max_age === null || person.age <= item.max_age);

const parseAge = (text: string): number | null => {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const age = Number(text.trim());
  return age >= MIN_AGE && age <= MAX_AGE ? age : null;
};

/**
 * The symptom checker (symptom-checker, health-check, isabel-symptom-checker): who it is for,
 * the main complaint (a searchable list), how long, how bad, then that complaint's red-flag
 * questions (one after the other, most urgent first: a "yes" shows its result at once, nothing
 * more is asked); one step at a time, with progress and a way back; then the result. The notice that
 * it is not for emergencies and is experimental stays at the top throughout.
 */
export default function SymptomCheckerPage() {
  const { org } = useOrganizationContext();
  const { t, i18n } = useTranslation('symptom-checker');
  const language = i18n.resolvedLanguage ?? 'en';
  const complaints = useComplaints(language);
  const assess = useAssessSymptoms();
  const [step, setStep] = useState(0);
  const [answers, setAnswers] = useState<Answers>(EMPTY);
  const [showErrors, setShowErrors] = useState(false);
  const [outcome, setOutcome] = useState<{ input: SymptomCheckInput; result: SymptomCheckResult } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const emergencyNumber = org.emergency_number ?? '112';

  // The complaint list comes in the reader's language: a language change keeps the choice, renamed.
  const complaint = useMemo(
    () => (answers.complaint ? (complaints.data?.complaints.find((c) => c.id === answers.complaint!.id) ?? answers.complaint) : null),
    [answers.complaint, complaints.data],
  );

  const age = parseAge(answers.age);
  const person: Person | null = age !== null && answers.sex ? { age, sex: answers.sex } : null;
  const options = useMemo(() => (complaints.data?.complaints ?? []).filter((c) => !person || isFor(c, person)), [complaints.data, person?.age, person?.sex]); // eslint-disable-line react-hooks/exhaustive-deps
  const flags = complaint && person ? complaint.red_flags.filter((f) => isFor(f, person)) : [];
  // The shared rule decides which questions are shown and when they end.
  const progress = redFlagProgress(flags, answers.flags);

  // Each new step (and the result) is announced: the focus moves to its heading.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [step, outcome]);

  const current: Step = STEPS[step]!;
  const valid: Record<Step, boolean> = {
    who: person !== null,
    complaint: complaint !== null && person !== null && isFor(complaint, person),
    duration: answers.duration !== '',
    severity: answers.severity !== '',
    flags: progress.next === null,
  };

  const set = (change: Partial<Answers>) => setAnswers((a) => ({ ...a, ...change }));
  const goTo = (next: number) => {
    moved.current = true;
    setShowErrors(false);
    setStep(next);
  };

  const assessWith = (flagAnswers: Record<string, FlagAnswer>) => {
    const stop = redFlagProgress(flags, flagAnswers).stop;
    const input: SymptomCheckInput = {
      age: person!.age,
      sex: person!.sex,
      complaint: complaint!.id,
      duration: answers.duration as Duration,
      severity: answers.severity as Severity,
      red_flags: stop ? [stop.id] : [],
    };
    assess.mutate(input, {
      onSuccess: (result) => {
        moved.current = true;
        setOutcome({ input, result });
      },
    });
  };

  const next = () => {
    if (!valid[current]) return setShowErrors(true);
    if (step < STEPS.length - 1) return goTo(step + 1);
    assessWith(answers.flags);
  };

  /** A red flag answered: a "yes" shows its result at once; a "no" shows the next question. */
  const answerFlag = (id: string, answer: FlagAnswer) => {
    const flagAnswers = { ...answers.flags, [id]: answer };
    set({ flags: flagAnswers });
    setShowErrors(false);
    if (redFlagProgress(flags, flagAnswers).stop) assessWith(flagAnswers);
  };

  const startOver = () => {
    moved.current = true;
    assess.reset();
    setAnswers(EMPTY);
    setOutcome(null);
    setShowErrors(false);
    setStep(0);
  };

  return (
    <HubPage pageTitle={t('pageTitle')} title={t('title')} intro={outcome ? undefined : t('intro')} maxWidth={760}>
      <SafetyNotice emergencyNumber={emergencyNumber} />
      {outcome && complaint ? (
        <ResultView
          headingRef={heading}
          input={outcome.input}
          result={outcome.result}
          complaint={complaint}
          emergencyNumber={emergencyNumber}
          onStartOver={startOver}
        />
      ) : (
        <Paper variant="outlined" component="section" aria-labelledby="symptom-step-heading" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography variant="body2" color="text.secondary" id="symptom-progress-text">
            {t('progress', { step: step + 1, total: STEPS.length })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={((step + 1) / STEPS.length) * 100}
            aria-label={t('progressLabel')}
            aria-valuetext={t('progress', { step: step + 1, total: STEPS.length })}
            sx={{ my: 1, height: 8, borderRadius: 4 }}
          />
          <Typography variant="h2" id="symptom-step-heading" ref={heading} tabIndex={-1} sx={{ mt: 2, mb: 2, outline: 'none' }}>
            {t(`steps.${current}`)}
          </Typography>

          {current === 'who' && (
            <Stack spacing={3}>
              <Typography color="text.secondary">{t('who.text')}</Typography>
              <TextField
                label={t('who.age')}
                value={answers.age}
                onChange={(e) => set({ age: e.target.value.replace(/[^\d]/g, '').slice(0, 3) })}
                slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 3 } }}
                error={showErrors && age === null}
                helperText={showErrors && age === null ? t('who.ageError') : t('who.ageHelp')}
                sx={{ maxWidth: 240 }}
                required
              />
              <FormControl error={showErrors && !answers.sex} required>
                <FormLabel id="symptom-sex">{t('who.sex')}</FormLabel>
                <RadioGroup row aria-labelledby="symptom-sex" value={answers.sex} onChange={(e) => set({ sex: e.target.value as Sex })}>
                  {SEXES.map((sex) => (
                    <FormControlLabel key={sex} value={sex} control={<Radio />} label={t(`who.${sex}`)} />
                  ))}
                </RadioGroup>
                {showErrors && !answers.sex && <FormHelperText>{t('who.sexError')}</FormHelperText>}
              </FormControl>
            </Stack>
          )}

          {current === 'complaint' && (
            <Stack spacing={2}>
              <Typography color="text.secondary">{t('complaint.text')}</Typography>
              {complaints.isError ? (
                <Alert severity="error">{t('complaint.loadError')}</Alert>
              ) : (
                <Autocomplete
                  options={options}
                  loading={complaints.isPending}
                  value={complaint && options.some((o) => o.id === complaint.id) ? complaint : null}
                  onChange={(_e, value) => set({ complaint: value, flags: {} })}
                  getOptionLabel={(o) => o.name}
                  isOptionEqualToValue={(a, b) => a.id === b.id}
                  filterOptions={(list, state) => list.filter((o) => matchesSearch([o.name, ...o.synonyms], state.inputValue))}
                  noOptionsText={t('complaint.noOptions')}
                  openOnFocus
                  autoHighlight
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('complaint.label')}
                      required
                      error={showErrors && !valid.complaint}
                      helperText={showErrors && !valid.complaint ? t('complaint.error') : undefined}
                    />
                  )}
                />
              )}
            </Stack>
          )}

          {current === 'duration' && (
            <ChoiceGroup
              id="symptom-duration"
              label={t('steps.duration')}
              value={answers.duration}
              onChange={(v) => set({ duration: v as Duration })}
              options={DURATIONS.map((d) => ({ value: d, label: t(`duration.${d}`) }))}
              error={showErrors && !valid.duration ? t('duration.error') : null}
            />
          )}

          {current === 'severity' && (
            <ChoiceGroup
              id="symptom-severity"
              label={t('steps.severity')}
              value={answers.severity}
              onChange={(v) => set({ severity: v as Severity })}
              options={SEVERITIES.map((s) => ({ value: s, label: t(`severity.${s}`), hint: t(`severity.${s}Hint`) }))}
              error={showErrors && !valid.severity ? t('severity.error') : null}
            />
          )}

          {current === 'flags' && (
            <Stack spacing={2.5}>
              <Typography color="text.secondary">{t('flags.text')}</Typography>
              {progress.shown.map((flag) => {
                const missing = showErrors && !answers.flags[flag.id];
                return (
                  <FormControl key={flag.id} error={missing} required component="fieldset">
                    <FormLabel component="legend" id={`flag-${flag.id}`} sx={{ color: 'text.primary', mb: 0.5 }}>
                      {flag.question}
                    </FormLabel>
                    <RadioGroup
                      row
                      aria-labelledby={`flag-${flag.id}`}
                      value={answers.flags[flag.id] ?? ''}
                      onChange={(e) => answerFlag(flag.id, e.target.value as FlagAnswer)}
                    >
                      <FormControlLabel value="yes" control={<Radio />} label={t('flags.yes')} />
                      <FormControlLabel value="no" control={<Radio />} label={t('flags.no')} />
                    </RadioGroup>
                    {missing && <FormHelperText>{t('flags.error')}</FormHelperText>}
                  </FormControl>
                );
              })}
            </Stack>
          )}

          {assess.isError && (
            <Alert severity="error" sx={{ mt: 3 }}>
              {t('assessError', { number: emergencyNumber })}
            </Alert>
          )}

          <Box sx={{ display: 'flex', flexDirection: { xs: 'column-reverse', sm: 'row' }, justifyContent: 'space-between', gap: 1.5, mt: 4 }}>
            <Button variant="outlined" onClick={() => goTo(step - 1)} disabled={step === 0 || assess.isPending} sx={{ visibility: step === 0 ? 'hidden' : 'visible' }}>
              {t('back')}
            </Button>
            <Button
              variant="contained"
              size="large"
              onClick={next}
              disabled={assess.isPending}
              startIcon={assess.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
            >
              {assess.isPending ? t('checking') : step === STEPS.length - 1 ? t('seeResult') : t('next')}
            </Button>
          </Box>
        </Paper>
      )}
    </HubPage>
  );
}

/** One answer of a few, each a large target (phones). */
function ChoiceGroup(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string; hint?: string }>;
  error: string | null;
}) {
  return (
    <FormControl error={props.error !== null} required fullWidth>
      <FormLabel id={props.id} sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {props.label}
      </FormLabel>
      <RadioGroup aria-labelledby={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)} sx={{ gap: 1 }}>
        {props.options.map((o) => (
          <FormControlLabel
            key={o.value}
            value={o.value}
            control={<Radio />}
            label={
              <Box sx={{ py: 0.5 }}>
                <Typography>{o.label}</Typography>
                {o.hint && (
                  <Typography variant="body2" color="text.secondary">
                    {o.hint}
                  </Typography>
                )}
              </Box>
            }
            sx={{ m: 0, pl: 1, pr: 2, border: 1, borderColor: props.value === o.value ? 'primary.main' : 'divider', borderRadius: 2 }}
          />
        ))}
      </RadioGroup>
      {props.error && <FormHelperText>{props.error}</FormHelperText>}
    </FormControl>
  );
}
