import { forwardRef, useId, type ReactNode } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';

export interface TextInputProps extends Omit<OutlinedInputProps, 'label' | 'error'> {
  label: string;
  error?: string | undefined;
  helperText?: ReactNode;
}

/**
 * An outlined text field with label and error text. MUI's TextField also brings Select, Menu,
 * Popover and Modal into every page that uses it; this keeps forms (and the sign-in page) light.
 */
export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  { label, error, helperText, required, fullWidth = true, id, ...input },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const helperId = `${inputId}-helper`;
  const help = error ?? helperText;
  return (
    <FormControl variant="outlined" fullWidth={fullWidth} required={required ?? false} error={Boolean(error)}>
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput
        id={inputId}
        inputRef={ref}
        label={required ? `${label} *` : label}
        aria-describedby={help ? helperId : undefined}
        {...input}
      />
      <FormHelperText id={helperId} role={error ? 'alert' : undefined}>
        {help ?? ' '}
      </FormHelperText>
    </FormControl>
  );
});
