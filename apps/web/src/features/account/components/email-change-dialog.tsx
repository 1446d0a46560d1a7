import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { validateEmailField } from '@healthbook/shared/validation';
import { ConfirmIdentityDialog } from '../../../components/confirm-identity-dialog';
import { TextInput } from '../../../components/text-input';
import { fieldErrorText } from '../../../lib/form-errors';
import { canProveWithCode } from '../../../lib/reauth';
import { useRequestEmailChange } from '../api/request-email-change';

interface EmailChangeValues {
  email: string;
}

/** The new address, in the dialog's form: a valid address other than the current one. */
function NewEmailField({ current }: { current: string }) {
  const { t } = useTranslation(['account', 'validation']);
  const {
    register,
    formState: { errors },
  } = useFormContext<EmailChangeValues>();
  return (
    <TextInput
      label={t('emailChange.newEmail')}
      type="email"
      autoComplete="email"
      autoFocus
      required
      error={fieldErrorText(errors.email, t)}
      {...register('email', {
        validate: (value) => {
          const rule = validateEmailField(value);
          if (rule !== true) return rule;
          return value.trim().toLowerCase() === current.toLowerCase() ? 'account:emailChange.same' : true;
        },
      })}
    />
  );
}

export interface EmailChangeDialogProps {
  open: boolean;
  user: UserDto;
  /** The link was sent: the server's words (or ours) for the page to say. */
  onSent: (message: string) => void;
  onClose: () => void;
}

/**
 * "Change e-mail": the new address and the password (or an authenticator code). The server
 * mails a link to the new address (the sign-in address changes when it is opened) and a notice
 * to the old one; it answers the same whether or not the address is taken.
 */
export function EmailChangeDialog({ open, user, onSent, onClose }: EmailChangeDialogProps) {
  const { t } = useTranslation('account');
  const requestChange = useRequestEmailChange();
  return (
    <ConfirmIdentityDialog<EmailChangeValues>
      open={open}
      title={t('emailChange.title')}
      description={t('emailChange.text')}
      submitLabel={t('emailChange.submit')}
      allowCode={canProveWithCode(user)}
      defaultValues={{ email: '' }}
      fields={['email']}
      onConfirm={async ({ email }, proof) => {
        const address = email.trim();
        const answer = await requestChange.mutateAsync({ email: address, ...proof });
        onSent(answer?.detail || t('emailChange.sent', { email: address }));
      }}
      onClose={onClose}
    >
      <NewEmailField current={user.email} />
    </ConfirmIdentityDialog>
  );
}
