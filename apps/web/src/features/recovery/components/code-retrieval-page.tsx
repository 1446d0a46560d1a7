import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateDob, validateRetrievalName } from '@healthbook/shared/validation';
import { BackLink } from '../../../components/back-link';
import { FormPage } from '../../../components/form-page';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useRetrieveAccessCode } from '../api/retrieve-access-code';

interface CodeRetrievalForm {
  first_name: string;
  last_name: string;
  dob: string;
}

const EMPTY: CodeRetrievalForm = { first_name: '', last_name: '', dob: '' };
/** The server's names of the fields (it calls the date of birth DOB). */
const SERVER_FIELDS = { first_name: 'first_name', last_name: 'last_name', DOB: 'dob' } as const;

/** Resend Access Code: the organisation sends the access code again to whoever matches name and date of birth. */
export default function CodeRetrievalPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation(['auth', 'validation']);
  const retrieve = useRetrieveAccessCode();
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CodeRetrievalForm>({ mode: 'onTouched', defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await retrieve.mutateAsync({
        org_id: org.org,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        DOB: values.dob.trim(),
      });
      // The request layer answers only for 2xx; an empty answer is not the 200 "message text" the spec expects.
      if (answer === null || answer === undefined) {
        setFailure(t('common.somethingWentWrong'));
        return;
      }
      reset(EMPTY);
      setSubmitted(true);
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: SERVER_FIELDS, fallback: t('common.genericError') }));
    }
  });

  return (
    <FormPage
      pageTitle={t('codeRetrieval.pageTitle')}
      heading={t('codeRetrieval.title')}
      top={<BackLink to={paths.login(clientId)} label={t('common.back')} />}
    >
      {submitted ? (
        <Box role="status" sx={{ mt: 2 }}>
          <Typography variant="h2" gutterBottom>
            {t('codeRetrieval.thankYou')}
          </Typography>
          <Typography>{t('codeRetrieval.submitted')}</Typography>
        </Box>
      ) : (
        <>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {t('codeRetrieval.text')}
          </Typography>
          <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
            {failure && <Alert severity="error">{failure}</Alert>}
            <TextInput
              label={t('codeRetrieval.firstName')}
              autoComplete="given-name"
              required
              error={fieldErrorText(errors.first_name, t)}
              {...register('first_name', { validate: (v) => validateRetrievalName(v, 'first') })}
            />
            <TextInput
              label={t('codeRetrieval.lastName')}
              autoComplete="family-name"
              required
              error={fieldErrorText(errors.last_name, t)}
              {...register('last_name', { validate: (v) => validateRetrievalName(v, 'last') })}
            />
            <TextInput
              label={t('codeRetrieval.dob')}
              placeholder={t('common.dobPlaceholder')}
              helperText={t('common.dobHint')}
              inputProps={{ inputMode: 'numeric' }}
              autoComplete="bday"
              required
              error={fieldErrorText(errors.dob, t)}
              {...register('dob', { validate: validateDob })}
            />
            <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
              {t('common.submit')}
            </Button>
          </Stack>
        </>
      )}
    </FormPage>
  );
}
