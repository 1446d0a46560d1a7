import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateAccessCode } from '@healthbook/shared/validation';
import { BackLink } from '../../../components/back-link';
import { FormPage } from '../../../components/form-page';
import { TextInput } from '../../../components/text-input';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useValidateSignupCode } from '../api/validate-signup-code';
import { saveSignupDetails } from '../signup-details';

interface AccessCodeForm {
  signup_code: string;
}

/** First step of sign-up: the access code from the e-mailed invitation. */
export default function AccessCodePage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation(['auth', 'validation']);
  const navigate = useNavigate();
  const validate = useValidateSignupCode();
  // Set when the server rejects the code; cleared as soon as the field is edited.
  const [invalid, setInvalid] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AccessCodeForm>({ mode: 'onTouched', defaultValues: { signup_code: '' } });

  const onSubmit = handleSubmit(async ({ signup_code }) => {
    setFailure(null);
    const code = signup_code.trim();
    try {
      const answer = await validate.mutateAsync({ org_id: org.org, signup_code: code });
      const userDetails = { ...answer, signup_code: answer.signup_code || code, org_id: answer.org_id ?? org.org };
      saveSignupDetails(userDetails);
      await navigate(paths.signup(clientId), { state: { userDetails } });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 404)) setInvalid(true);
      else setFailure(applyServerErrors(error, { fallback: t('common.genericError') }));
    }
  });

  const fieldError = errors.signup_code?.message ? t(errors.signup_code.message) : invalid ? t('validation:accessCodeInvalid') : undefined;

  return (
    <FormPage
      pageTitle={t('accessCode.pageTitle')}
      heading={t('accessCode.title')}
      top={<BackLink to={paths.login(clientId)} label={t('common.back')} />}
    >
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('accessCode.note')}
      </Typography>
      <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit}>
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextInput
          label={t('accessCode.label')}
          autoComplete="one-time-code"
          inputProps={{ autoCapitalize: 'characters', spellCheck: false }}
          required
          error={fieldError}
          {...register('signup_code', { validate: validateAccessCode, onChange: () => setInvalid(false) })}
        />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
          {t('accessCode.submit')}
        </Button>
      </Stack>
      <Link component={RouterLink} to={paths.codeRetrieval(clientId)} sx={{ display: 'inline-block', mt: 3 }}>
        {t('accessCode.resend')}
      </Link>
    </FormPage>
  );
}
