import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Cancel from '@mui/icons-material/Cancel';
import FactCheck from '@mui/icons-material/FactCheck';
import type { FhirSource, SourceCheckResult, UpdateFhirSourceBody } from '@healthbook/shared/contracts/sources';
import { DEFAULT_SOURCE_SCOPES } from '@healthbook/shared/sources';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useCheckFhirSource } from '../api/check-fhir-source';
import { useSaveFhirSource } from '../api/save-fhir-source';
import { RedirectUri } from './redirect-uri';

interface SourceForm {
  name: string;
  fhir_base_url: string;
  client_id: string;
  client_secret: string;
  scopes: string;
}

const FIELDS = ['name', 'fhir_base_url', 'client_id', 'client_secret', 'scopes'] as const;
const required = (value: string) => (value.trim() ? true : 'validation:required');

export interface SourceFormDialogProps {
  open: boolean;
  /** Absent: a new source. */
  source?: FhirSource | null;
  organizationId: number;
  /** Where the organisation's patients come back to (shown to register with the provider). */
  redirectUri: string;
  onClose: () => void;
  /** Saved: the source as the server answered it. */
  onSaved: (source: FhirSource, created: boolean) => void;
}

/** Adding or changing a SMART on FHIR source: "Check" reads the address's SMART configuration before anything is kept. */
export function SourceFormDialog({ open, source, organizationId, redirectUri, onClose, onSaved }: SourceFormDialogProps) {
  const { t } = useTranslation(['admin', 'validation']);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const save = useSaveFhirSource();
  const check = useCheckFhirSource();
  const [checked, setChecked] = useState<SourceCheckResult | null>(null);
  const [checkFailure, setCheckFailure] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [makePublic, setMakePublic] = useState(false);
  const editing = Boolean(source);
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<SourceForm>({
    mode: 'onTouched',
    defaultValues: {
      name: source?.name ?? '',
      fhir_base_url: source?.fhir_base_url ?? '',
      client_id: source?.client_id ?? '',
      client_secret: '',
      scopes: source?.scopes ?? DEFAULT_SOURCE_SCOPES,
    },
  });

  const runCheck = async () => {
    setCheckFailure(null);
    setChecked(null);
    if (!(await trigger('fhir_base_url'))) return;
    try {
      setChecked(await check.mutateAsync({ fhirBaseUrl: getValues('fhir_base_url').trim(), scopes: getValues('scopes') }));
    } catch (error) {
      setCheckFailure(applyServerErrors(error, { setError, fields: { fhir_base_url: 'fhir_base_url' }, fallback: t('admin:sources.form.checkFailed') }));
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const secret = values.client_secret;
    try {
      let saved: FhirSource;
      if (source) {
        const body: UpdateFhirSourceBody = {
          name: values.name.trim(),
          fhir_base_url: values.fhir_base_url.trim(),
          client_id: values.client_id.trim(),
          scopes: values.scopes.trim(),
          ...(makePublic ? { client_secret: null } : secret ? { client_secret: secret } : {}),
        };
        saved = await save.mutateAsync({ id: source.id, body });
      } else {
        saved = await save.mutateAsync({
          body: {
            org_id: organizationId,
            name: values.name.trim(),
            fhir_base_url: values.fhir_base_url.trim(),
            client_id: values.client_id.trim(),
            scopes: values.scopes.trim(),
            ...(secret ? { client_secret: secret } : {}),
          },
        });
      }
      onSaved(saved, !source);
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: FIELDS, fallback: t('admin:sources.form.saveFailed') }));
    }
  });

  const errorOf = (name: keyof SourceForm) => fieldErrorText(errors[name], t);

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={phone}>
      <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} sx={{ display: 'contents' }}>
        <DialogTitle id={titleId}>{editing ? t('admin:sources.form.editTitle', { name: source?.name }) : t('admin:sources.form.newTitle')}</DialogTitle>
        <DialogContent>
          {failure && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          )}
          <Box sx={{ pt: 1 }}>
            <TextInput label={t('admin:sources.form.name')} required autoComplete="off" error={errorOf('name')} {...register('name', { validate: required })} />
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
              <TextInput
                label={t('admin:sources.form.baseUrl')}
                required
                type="url"
                autoComplete="off"
                spellCheck={false}
                helperText={t('admin:sources.form.baseUrlHint')}
                error={errorOf('fhir_base_url')}
                {...register('fhir_base_url', { validate: required, onChange: () => setChecked(null) })}
              />
              <Button
                variant="outlined"
                onClick={() => void runCheck()}
                disabled={check.isPending}
                startIcon={check.isPending ? <CircularProgress size={16} aria-hidden /> : <FactCheck />}
                sx={{ mt: 1, flexShrink: 0, minHeight: 40 }}
              >
                {t('admin:sources.form.check')}
              </Button>
            </Box>
            <Box role="status" aria-live="polite">
              {checkFailure && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  {checkFailure}
                </Alert>
              )}
              {checked && <CheckList result={checked} />}
            </Box>
            <TextInput label={t('admin:sources.form.clientId')} required autoComplete="off" spellCheck={false} error={errorOf('client_id')} {...register('client_id', { validate: required })} />
            <TextInput
              label={t('admin:sources.form.clientSecret')}
              type="password"
              autoComplete="new-password"
              disabled={makePublic}
              helperText={editing && source?.confidential ? t('admin:sources.form.secretKept') : t('admin:sources.form.secretHint')}
              error={errorOf('client_secret')}
              {...register('client_secret')}
            />
            {editing && source?.confidential && (
              <FormControlLabel
                sx={{ mt: -1, mb: 1 }}
                control={<Checkbox checked={makePublic} onChange={(e) => setMakePublic(e.target.checked)} />}
                label={t('admin:sources.form.makePublic')}
              />
            )}
            <TextInput
              label={t('admin:sources.form.scopes')}
              required
              autoComplete="off"
              spellCheck={false}
              multiline
              minRows={2}
              helperText={t('admin:sources.form.scopesHint')}
              error={errorOf('scopes')}
              {...register('scopes', { validate: required })}
            />
            <RedirectUri value={redirectUri} />
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{t('admin:sources.form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {isSubmitting ? t('admin:sources.form.saving') : t('admin:sources.form.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The checks as the server made them: ✓ or ✗, each with what it found. */
function CheckList({ result }: { result: SourceCheckResult }) {
  const { t } = useTranslation('admin');
  return (
    <Box sx={{ mb: 2, p: 1.5, border: 1, borderColor: result.ok ? 'success.main' : 'error.main', borderRadius: 2 }}>
      <Typography sx={{ fontWeight: 600, mb: 1 }}>{result.ok ? t('sources.checks.allPassed') : t('sources.checks.someFailed')}</Typography>
      <Box component="ul" aria-label={t('sources.checks.title')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.75 }}>
        {result.checks.map((c) => (
          <Box component="li" key={c.check} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            {c.ok ? <CheckCircle color="success" fontSize="small" sx={{ mt: 0.25 }} aria-hidden /> : <Cancel color="error" fontSize="small" sx={{ mt: 0.25 }} aria-hidden />}
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              <Box component="span" sx={{ fontWeight: 600 }}>
                {t(`sources.checks.${c.check}`)}
              </Box>
              {` (${c.ok ? t('sources.checks.passed') : t('sources.checks.failed')}): `}
              {c.detail}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
