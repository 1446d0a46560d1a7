import { useId, useState, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CODE_ENTRY_LENGTH } from '@healthbook/shared/constants';
import { CodeEntry } from './code-entry';

export interface CodeFormProps {
  /** Accessible name of the six boxes. */
  label: string;
  /** What to do, above the boxes (it also describes them). */
  instructions?: ReactNode;
  busy: boolean;
  invalid: boolean;
  error: string | null;
  /** Change it to clear the boxes (a new code was sent). */
  resetKey?: number;
  /** Called with a complete code: on Enter, on the last digit, or by a submit button in `actions`. */
  onSubmit(code: string): void;
  /** Called when the user edits the code (to clear the invalid state). */
  onEdit?(): void;
  /** The buttons under the boxes; `complete` says whether six digits are in. */
  actions(complete: boolean): ReactNode;
  errorAlign?: 'left' | 'center';
}

/** A second-factor code step: instructions, the six boxes, the error read out as it appears, the actions. */
export function CodeForm({ label, instructions, busy, invalid, error, resetKey, onSubmit, onEdit, actions, errorAlign = 'left' }: CodeFormProps) {
  const [code, setCode] = useState('');
  const errorId = useId();
  const textId = useId();
  return (
    <Stack
      component="form"
      noValidate
      spacing={3}
      onSubmit={(e) => {
        e.preventDefault();
        if (code.length === CODE_ENTRY_LENGTH) onSubmit(code);
      }}
    >
      {instructions && (
        <Typography id={textId} color="text.secondary">
          {instructions}
        </Typography>
      )}
      <CodeEntry
        key={resetKey}
        label={label}
        autoFocus
        disabled={busy}
        invalid={invalid}
        describedBy={error ? errorId : instructions ? textId : undefined}
        onChange={(value) => {
          setCode(value);
          onEdit?.();
        }}
        onComplete={onSubmit}
      />
      <Typography id={errorId} role="alert" color="error" sx={{ minHeight: '1.5em', textAlign: errorAlign }}>
        {error ?? ''}
      </Typography>
      {actions(code.length === CODE_ENTRY_LENGTH)}
    </Stack>
  );
}
