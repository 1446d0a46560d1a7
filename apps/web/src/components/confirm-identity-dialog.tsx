import { useId, useState, type ReactNode } from 'react';
import { FormProvider, useForm, type DefaultValues, type FieldError, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isCompleteCode, validatePasswordField } from '@healthbook/shared/validation';
import { applyServerErrors, fieldErrorText } from '../lib/form-errors';
import type { IdentityProof } from '../lib/reauth';
import { CodeEntry } from './code-entry';
import { PasswordInput } from './password-input';

export interface ConfirmIdentityDialogProps<T extends FieldValues> {
  open: boolean;
  /** The dialog's title; "Confirm it's you" by default. */
  title?: string;
  /** What is being confirmed, above the fields. */
  description: ReactNode;
  /** The button that makes the change ("Register", "Remove", "Send link"). */
  submitLabel: string;
  submitColor?: 'primary' | 'error';
  /** A six-digit code may stand in for the password (see canProveWithCode). */
  allowCode: boolean;
  /** Fields of the change itself, above the password (read with useFormContext), their values and the server's names for them. */
  children?: ReactNode;
  defaultValues?: DefaultValues<T>;
  fields?: readonly Path<T>[];
  /** Makes the change with the proof; rejects with the server's answer, which the dialog shows. */
  onConfirm: (values: T, proof: IdentityProof) => Promise<unknown>;
  onClose: () => void;
}

/**
 * "Confirm it's you": a protected change (a second factor added or removed, a new e-mail
 * address) asks for the password again, or for a code of the authenticator app the user has.
 * A wrong password shows under the field; too many tries (429) show the server's words on top.
 */
export function ConfirmIdentityDialog<T extends FieldValues = Record<string, never>>(props: ConfirmIdentityDialogProps<T>) {
  const { open, onClose } = props;
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState(false);
  // Every opening starts afresh (nothing typed before, the password first): a new form each time.
  const [openings, setOpenings] = useState(0);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpenings((n) => n + 1);
  }
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} aria-labelledby={titleId} aria-describedby={textId} maxWidth="xs" fullWidth>
      <IdentityForm key={openings} {...props} titleId={titleId} textId={textId} onBusy={setBusy} />
    </Dialog>
  );
}

function IdentityForm<T extends FieldValues>({
  title,
  description,
  submitLabel,
  submitColor = 'primary',
  allowCode,
  children,
  defaultValues,
  fields = [],
  onConfirm,
  onClose,
  titleId,
  textId,
  onBusy,
}: ConfirmIdentityDialogProps<T> & { titleId: string; textId: string; onBusy: (busy: boolean) => void }) {
  const { t } = useTranslation(['account', 'validation']);
  const codeErrorId = useId();
  const [useCode, setUseCode] = useState(false);
  const [code, setCode] = useState('');
  const [general, setGeneral] = useState<string | null>(null);
  // The change's own fields (T) and the proof share one form: the server may answer about either.
  const form = useForm<FieldValues>({ mode: 'onTouched', defaultValues: { ...defaultValues, password: '' } });
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = form;

  // Registered on every render, so that its rule knows whether a code stands in for it.
  const passwordField = register('password', { validate: (value: string) => useCode || validatePasswordField(value) });

  /** Sends the change with the proof: the password, or the code entered (given as it completes). */
  const confirmWith = (entered: string) =>
    handleSubmit(async ({ password, ...change }) => {
      setGeneral(null);
      if (useCode && !isCompleteCode(entered)) {
        setError('code', { type: 'validate', message: 'validation:codeInvalid' });
        return;
      }
      const proof: IdentityProof = useCode ? { code: entered } : { password: String(password) };
      onBusy(true);
      try {
        await onConfirm(change as T, proof);
      } catch (error) {
        setGeneral(applyServerErrors(error, { setError, fields: [...fields, 'password', 'code'], fallback: t('reauth.error') }));
      } finally {
        onBusy(false);
      }
    });

  const switchProof = () => {
    setUseCode((current) => !current);
    setCode('');
    setGeneral(null);
    clearErrors(['password', 'code']);
  };

  const codeError = fieldErrorText(errors.code as FieldError | undefined, t);

  return (
    <FormProvider {...form}>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => {
          // The dialog is a portal: its submit must not reach a form around where it is declared.
          event.stopPropagation();
          void confirmWith(code)(event);
        }}
      >
        <DialogTitle id={titleId}>{title ?? t('reauth.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography id={textId} color="text.secondary">
              {description}
            </Typography>
            {general && <Alert severity="error">{general}</Alert>}
            {children}
            {useCode ? (
              <Stack spacing={1.5}>
                <Typography>{t('reauth.codeText')}</Typography>
                <CodeEntry
                  label={t('reauth.codeLabel')}
                  autoFocus
                  disabled={isSubmitting}
                  invalid={Boolean(codeError)}
                  describedBy={codeError ? codeErrorId : undefined}
                  onChange={(value) => {
                    setCode(value);
                    if (errors.code) clearErrors('code');
                  }}
                  onComplete={(value) => {
                    setCode(value);
                    if (!isSubmitting) void confirmWith(value)();
                  }}
                />
                <Typography id={codeErrorId} role="alert" color="error" variant="body2" sx={{ minHeight: '1.5em' }}>
                  {codeError ?? ''}
                </Typography>
              </Stack>
            ) : (
              <PasswordInput
                label={t('reauth.password')}
                autoComplete="current-password"
                autoFocus={!children}
                required
                error={fieldErrorText(errors.password as FieldError | undefined, t)}
                {...passwordField}
              />
            )}
            {allowCode && (
              <Box>
                <Link component="button" type="button" onClick={switchProof} sx={{ font: 'inherit', verticalAlign: 'baseline' }}>
                  {useCode ? t('reauth.usePassword') : t('reauth.useCode')}
                </Link>
              </Box>
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={onClose} color="inherit" disabled={isSubmitting}>
            {t('reauth.cancel')}
          </Button>
          <Button type="submit" variant="contained" color={submitColor} disabled={isSubmitting}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </FormProvider>
  );
}
