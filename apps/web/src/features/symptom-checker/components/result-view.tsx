import type { Ref } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Phone from '@mui/icons-material/Phone';
import type { SymptomCheckInput, SymptomCheckResult, SymptomComplaint } from '@healthbook/shared/contracts/symptom-checker';
import { useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSaveSymptomCheck } from '../api/save-symptom-check';

const TONE = { emergency: 'error', urgent: 'warning', soon: 'info', 'self-care': 'success' } as const;

/**
 * The result of a check, calm and plain: what to do first (for an emergency, the call button
 * before anything else), why (the warning signs answered yes, or the rule), what to do and when
 * to seek help; then saving it to the record as a symptom, and starting over.
 */
export function ResultView({ headingRef, input, result, complaint, emergencyNumber, onStartOver }: {
  headingRef: Ref<HTMLHeadingElement>;
  input: SymptomCheckInput;
  result: SymptomCheckResult;
  complaint: SymptomComplaint;
  emergencyNumber: string;
  onStartOver: () => void;
}) {
  const { org, clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('symptom-checker');
  const language = i18n.resolvedLanguage === 'el' ? 'el' : 'en';
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  const save = useSaveSymptomCheck();
  const level = result.level;
  const number = { number: emergencyNumber };
  const telehealth = features.status('teleconsultation') === 'active';
  const warningSigns = complaint.red_flags.filter((f) => !input.red_flags.includes(f.id));
  const crisisLines = complaint.id === 'low-mood' ? (org.crisis_lines ?? []) : [];

  return (
    <Stack spacing={3} component="section" aria-labelledby="symptom-result-heading">
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, borderWidth: 2, borderColor: `${TONE[level]}.main` }}>
        <Typography variant="body2" color="text.secondary">
          {t('result.heading')}
        </Typography>
        <Typography variant="h2" id="symptom-result-heading" ref={headingRef} tabIndex={-1} sx={{ mt: 0.5, mb: 1.5, outline: 'none' }}>
          {t(`result.${level}.title`, number)}
        </Typography>
        {level === 'emergency' && (
          <Button
            href={`tel:${emergencyNumber}`}
            variant="contained"
            color="error"
            size="large"
            startIcon={<Phone aria-hidden />}
            sx={{ mb: 2, py: 1.5, px: 3, fontSize: '1.15rem', width: { xs: '100%', sm: 'auto' } }}
          >
            {t('result.emergency.call', number)}
          </Button>
        )}
        <Typography>{t(`result.${level}.text`, number)}</Typography>
        {level === 'soon' && (
          <Box sx={{ mt: 2 }}>
            {telehealth ? (
              <Button component={RouterLink} to={paths.telehealth(clientId)} variant="contained" sx={{ width: { xs: '100%', sm: 'auto' } }}>
                {t('result.soon.book')}
              </Button>
            ) : (
              <Typography>{t('result.soon.noTelehealth')}</Typography>
            )}
          </Box>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('result.summary', {
            complaint: complaint.name,
            duration: t(`duration.${input.duration}`),
            severity: t(`severity.${input.severity}`),
          })}
        </Typography>
      </Paper>

      {crisisLines.length > 0 && (
        <Alert severity="info" role="note">
          <Typography sx={{ mb: 0.5 }}>{t('result.crisis')}</Typography>
          <Stack component="ul" sx={{ m: 0, pl: 2.5 }}>
            {crisisLines.map((line) => (
              <li key={line.number}>
                <Link href={`tel:${line.number}`}>{t('result.crisisLine', { name: line.name[language], number: line.number })}</Link>
              </li>
            ))}
          </Stack>
        </Alert>
      )}

      <Box>
        <Typography variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 600, mb: 1 }}>
          {t('result.why')}
        </Typography>
        <Stack component="ul" spacing={1} sx={{ m: 0, pl: 2.5 }}>
          {result.reasons.map((reason) => (
            <li key={`${reason.kind}:${reason.id}`}>
              <Typography>{reason.text}</Typography>
              {reason.source && (
                <Typography variant="body2" color="text.secondary">
                  {t('result.source', { source: reason.source.title })}
                </Typography>
              )}
            </li>
          ))}
        </Stack>
      </Box>

      <Box>
        <Typography variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 600, mb: 1 }}>
          {t('result.whatToDo')}
        </Typography>
        <Stack component="ul" spacing={1} sx={{ m: 0, pl: 2.5 }}>
          {result.advice.map((key) => (
            <li key={key}>
              <Typography>{t(`result.advice.${key}`, number)}</Typography>
            </li>
          ))}
        </Stack>
        {level !== 'emergency' && warningSigns.length > 0 && (
          <Box sx={{ mt: 2 }}>
            <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{t('result.warningSigns')}</Typography>
            <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
              {warningSigns.map((flag) => (
                <li key={flag.id}>
                  <Typography variant="body2">{flag.question}</Typography>
                </li>
              ))}
            </Stack>
          </Box>
        )}
      </Box>

      <Typography variant="body2" color="text.secondary">
        {t('result.notDiagnosis')}
      </Typography>

      {save.isSuccess && (
        <Alert severity="success">
          {t('result.saved')}{' '}
          <Link component={RouterLink} to={paths.recordList(clientId, 'symptom')}>
            {t('result.savedLink')}
          </Link>
        </Alert>
      )}
      {save.isError && <Alert severity="error">{t('result.saveError')}</Alert>}

      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1.5 }}>
        {!save.isSuccess && (
          <Button variant="contained" onClick={() => save.mutate(input)} disabled={save.isPending}>
            {save.isPending ? t('result.saving') : t('result.save')}
          </Button>
        )}
        <Button variant="outlined" onClick={onStartOver}>
          {t('result.startOver')}
        </Button>
      </Box>
    </Stack>
  );
}
