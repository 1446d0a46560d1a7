import { forwardRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { EyeIcon, EyeOffIcon } from './icons';
import { TextInput, type TextInputProps } from './text-input';

export type PasswordInputProps = Omit<TextInputProps, 'type' | 'endAdornment'>;

/** A password field with a show/hide toggle. */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(props, ref) {
  const { t } = useTranslation('auth');
  const [shown, setShown] = useState(false);
  return (
    <TextInput
      {...props}
      ref={ref}
      type={shown ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton onClick={() => setShown((v) => !v)} edge="end" aria-label={shown ? t('password.hide') : t('password.show')}>
            {shown ? <EyeOffIcon /> : <EyeIcon />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
});
