import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UserDto, WizardStepName } from '@healthbook/shared/contracts/users';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CircleOutlineIcon from '@mui/icons-material/RadioButtonUnchecked';
import { visuallyHidden } from '../../../components/visually-hidden';
import { paths } from '../../../lib/paths';
import { useWizard } from '../api/get-wizard';
import { useUpdateMe } from '../api/update-me';

/** Where a step is done, for the steps whose pages exist. */
function stepLink(step: WizardStepName, clientId: string, user: UserDto): string | null {
  if (step === 'profile') return paths.profile(clientId);
  if (step === 'mfa') return user.has_mfa_enabled ? paths.profile(clientId, 3) : paths.mfaRegister(clientId);
  if (step === 'profile_questions') return paths.profileQuestionnaire(clientId);
  return null;
}

/**
 * The first-run wizard: while pending, its steps with their completion and a Minimize button
 * (settings.isWizardMinimized). Completed or minimized, it is not shown.
 */
export function WizardCard({ user, clientId }: { user: UserDto; clientId: string }) {
  const { t, i18n } = useTranslation('account');
  const hiddenLocally = user.wizard_complete || user.settings.isWizardMinimized === true;
  const wizard = useWizard(i18n.resolvedLanguage ?? 'en');
  const updateMe = useUpdateMe();
  const titleId = useId();

  if (hiddenLocally || !wizard.data || wizard.data.status !== 'pending') return null;
  const steps = wizard.data.steps;
  const done = steps.filter((s) => s.completed).length;

  // The answer hides the wizard (isWizardMinimized) and the wizard is fetched again.
  const minimize = () => updateMe.mutate({ settings: { ...user.settings, isWizardMinimized: true } });

  return (
    <Paper component="section" variant="outlined" aria-labelledby={titleId} sx={{ p: { xs: 2.5, sm: 3 }, borderRadius: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <Box>
          <Typography variant="h2" id={titleId}>
            {t('wizard.title')}
          </Typography>
          <Typography color="text.secondary">{t('wizard.progress', { done, total: steps.length })}</Typography>
        </Box>
        <Button onClick={minimize} disabled={updateMe.isPending || updateMe.isSuccess} size="small">
          {t('wizard.minimize')}
        </Button>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={steps.length ? (done / steps.length) * 100 : 0}
        aria-label={t('wizard.progress', { done, total: steps.length })}
        sx={{ my: 2, height: 8, borderRadius: 4 }}
      />
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
        {steps.map((step) => {
          const to = step.completed ? null : stepLink(step.model_name, clientId, user);
          return (
            <Box component="li" key={step.model_name} sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
              {step.completed ? <CheckCircleIcon color="success" aria-hidden /> : <CircleOutlineIcon color="disabled" aria-hidden />}
              <Box sx={{ flex: 1, minWidth: 0 }}>
                {to ? (
                  <Link component={RouterLink} to={to}>
                    {step.title}
                  </Link>
                ) : (
                  <Typography component="span" sx={step.completed ? { color: 'text.secondary' } : undefined}>
                    {step.title}
                  </Typography>
                )}
                <Box component="span" sx={visuallyHidden}>
                  {step.completed ? t('wizard.stepDone') : t('wizard.stepPending')}
                </Box>
              </Box>
            </Box>
          );
        })}
      </Box>
      {updateMe.isError && (
        <Typography role="alert" color="error" sx={{ mt: 2 }}>
          {t('wizard.minimizeError')}
        </Typography>
      )}
    </Paper>
  );
}
