import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { CreateLinkBody, LinkedAccount } from '@healthbook/shared/contracts/connection-hub';
import { isValidEmail } from '@healthbook/shared/validation';
import { PasswordInput } from '../../../components/password-input';
import { TextInput } from '../../../components/text-input';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useOrganizations } from '../../../lib/organization-query';
import { useCreateLink } from '../api/create-link';

type Field = 'client_id' | 'email' | 'password' | 'code';
type Errors = Partial<Record<Field | 'form', string>>;

export interface LinkAccountDialogProps {
  onClose: () => void;
  onLinked: (link: LinkedAccount) => void;
}

/**
 * "Link an account": the other organisation (chosen by name), the e-mail and password of the account
 * there, then — when that account has two-step verification — its code. The form's own rules
 * are the shared schema's; the server's words are shown as they come.
 */
export function LinkAccountDialog({ onClose, onLinked }: LinkAccountDialogProps) {
  const { t } = useTranslation(['connectionHub', 'validation']);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const [values, setValues] = useState({ client_id: '', email: '', password: '', code: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [codeAsked, setCodeAsked] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const create = useCreateLink();
  // The other organisations, offered by name (their client id is what the server is sent).
  const { clientId } = useOrganizationContext();
  const organizations = useOrganizations();
  const others = (organizations.data ?? []).filter((o) => o.active && o.name.toLowerCase() !== clientId.toLowerCase()).sort((a, b) => a.org_name.localeCompare(b.org_name));
  const chosen = others.find((o) => o.name === values.client_id) ?? null;

  const set = (field: Field) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateLinkBody = { client_id: values.client_id.trim(), email: values.email.trim(), password: values.password, ...(codeAsked ? { code: values.code.trim() } : {}) };
    // The server's rules (contracts/connection-hub.ts), checked here first.
    const local: Errors = {};
    if (!body.client_id) local.client_id = t('validation:linkOrganizationRequired');
    else if (!/^[A-Za-z0-9._-]+$/.test(body.client_id)) local.client_id = t('validation:linkOrganizationInvalid');
    if (!body.email) local.email = t('validation:emailRequired');
    else if (!isValidEmail(body.email)) local.email = t('validation:emailInvalid');
    if (!body.password) local.password = t('validation:passwordRequired');
    if (codeAsked && !/^[0-9]{6}$/.test(body.code ?? '')) local.code = t('validation:codeInvalid');
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: (link) => onLinked(link),
      onError: (error) => {
        const data = error instanceof ApiError && error.status < 500 && error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>) : null;
        if (!data) return setErrors({ form: t('link.failed') });
        const next: Errors = {};
        for (const [key, value] of Object.entries(data)) {
          const text = Array.isArray(value) ? value.map(String).join(' ') : String(value);
          if (key === 'code') {
            // The first time: the server asks for the code (not an error yet).
            if (!codeAsked) {
              setCodeAsked(text);
              setTimeout(() => codeRef.current?.focus(), 0);
            } else next.code = text;
          } else if (key === 'client_id' || key === 'email' || key === 'password') next[key] = text;
          else next.form = text;
        }
        setErrors(next);
      },
    });
  };

  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('link.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('link.intro')}</DialogContentText>
          {errors.form && (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              {errors.form}
            </Alert>
          )}
          <Stack spacing={2}>
            <Autocomplete
              options={others}
              value={chosen}
              onChange={(_e, org) => setValues((v) => ({ ...v, client_id: org?.name ?? '' }))}
              getOptionLabel={(o) => o.org_name}
              isOptionEqualToValue={(o, v) => o.name === v.name}
              loading={organizations.isPending}
              loadingText={t('link.organizationsLoading')}
              noOptionsText={t('link.noOrganizations')}
              disabled={codeAsked !== null}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('link.organization')}
                  required
                  autoFocus
                  error={Boolean(errors.client_id)}
                  helperText={errors.client_id ?? t('link.organizationHelp')}
                />
              )}
            />
            <TextInput label={t('link.email')} type="email" value={values.email} onChange={set('email')} error={errors.email} required autoComplete="off" disabled={codeAsked !== null} />
            <PasswordInput label={t('link.password')} value={values.password} onChange={set('password')} error={errors.password} required autoComplete="off" disabled={codeAsked !== null} />
            {codeAsked !== null && (
              <>
                <Alert severity="info">{codeAsked}</Alert>
                <TextInput
                  inputRef={codeRef}
                  label={t('link.code')}
                  value={values.code}
                  onChange={set('code')}
                  error={errors.code}
                  required
                  autoComplete="one-time-code"
                  inputProps={{ inputMode: 'numeric', maxLength: 6 }}
                />
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {codeAsked ? t('link.verify') : t('link.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
