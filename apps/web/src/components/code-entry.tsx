import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { CODE_ENTRY_LENGTH } from '@healthbook/shared/constants';

export interface CodeEntryProps {
  /** Names the group of boxes for assistive technology ("Verification code"). */
  label: string;
  /** Called with the code whenever all boxes are filled, and on Enter when they are. */
  onComplete: (code: string) => void;
  /** Called on every edit with what is typed so far (to clear an invalid state, for example). */
  onChange?: (value: string) => void;
  length?: number;
  disabled?: boolean;
  invalid?: boolean;
  autoFocus?: boolean;
  /** Id of a text describing the boxes or their error. */
  describedBy?: string;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * The six-box code entry of the spec: one digit per box, paste fills the boxes, Backspace and
 * the arrow keys move between boxes, Enter submits; the code is emitted only when complete.
 * To start again, render it with a new `key`.
 */
export function CodeEntry({ label, onComplete, onChange, length = CODE_ENTRY_LENGTH, disabled = false, invalid = false, autoFocus = false, describedBy }: CodeEntryProps) {
  const { t } = useTranslation('account');
  const [digits, setDigits] = useState<string[]>(() => Array.from({ length }, () => ''));
  const inputs = useRef<Array<HTMLInputElement | null>>([]);

  useEffect(() => {
    if (autoFocus) inputs.current[0]?.focus();
  }, [autoFocus]);

  const focus = (index: number) => {
    const input = inputs.current[Math.max(0, Math.min(length - 1, index))];
    input?.focus();
    input?.select();
  };

  const update = (next: string[]) => {
    setDigits(next);
    const value = next.join('');
    onChange?.(value);
    if (next.every((d) => d !== '')) onComplete(value);
  };

  /** Puts the digits of `text` into the boxes from `start` on; focuses the box after the last one. */
  const fill = (start: number, text: string) => {
    const incoming = digitsOf(text).slice(0, length - start).split('');
    if (incoming.length === 0) return;
    const next = [...digits];
    incoming.forEach((d, k) => (next[start + k] = d));
    update(next);
    focus(start + incoming.length);
  };

  const handleChange = (index: number, raw: string) => {
    const typed = digitsOf(raw);
    if (typed === '') {
      if (raw === '' && digits[index] !== '') update(digits.map((d, k) => (k === index ? '' : d)));
      return;
    }
    // A box shows one digit. Two digits: one typed after the old one, which goes to the next box.
    // More: a whole code put in by the browser (one-time-code autofill), which fills every box.
    if (typed.length >= length) fill(0, typed);
    else if (typed.length === 2 && digits[index] !== '' && typed.startsWith(digits[index]!)) fill(index + 1, typed.slice(1));
    else fill(index, typed);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'Backspace':
        event.preventDefault();
        if (digits[index] !== '') update(digits.map((d, k) => (k === index ? '' : d)));
        else if (index > 0) {
          update(digits.map((d, k) => (k === index - 1 ? '' : d)));
          focus(index - 1);
        }
        break;
      case 'Delete':
        event.preventDefault();
        if (digits[index] !== '') update(digits.map((d, k) => (k === index ? '' : d)));
        break;
      case 'ArrowLeft':
        event.preventDefault();
        focus(index - 1);
        break;
      case 'ArrowRight':
        event.preventDefault();
        focus(index + 1);
        break;
      case 'Home':
        event.preventDefault();
        focus(0);
        break;
      case 'End':
        event.preventDefault();
        focus(length - 1);
        break;
      case 'Enter': {
        event.preventDefault();
        const value = digits.join('');
        if (value.length === length) onComplete(value);
        break;
      }
    }
  };

  const handlePaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const text = digitsOf(event.clipboardData.getData('text'));
    fill(text.length >= length ? 0 : index, text);
  };

  return (
    <Box role="group" aria-label={label} aria-describedby={describedBy} sx={{ display: 'flex', gap: { xs: 1, sm: 1.5 }, justifyContent: 'center' }}>
      {digits.map((digit, index) => (
        <Box
          key={index}
          component="input"
          ref={(el: HTMLInputElement | null) => {
            inputs.current[index] = el;
          }}
          value={digit}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={t('codeEntry.digit', { n: index + 1, total: length })}
          aria-invalid={invalid || undefined}
          disabled={disabled}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => handleChange(index, e.target.value)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => handleKeyDown(index, e)}
          onPaste={(e: ClipboardEvent<HTMLInputElement>) => handlePaste(index, e)}
          onFocus={(e: React.FocusEvent<HTMLInputElement>) => e.target.select()}
          sx={{
            width: { xs: 42, sm: 48 },
            height: { xs: 52, sm: 56 },
            p: 0,
            textAlign: 'center',
            fontSize: 24,
            fontFamily: 'inherit',
            fontWeight: 600,
            color: 'text.primary',
            bgcolor: 'background.paper',
            border: 1,
            borderColor: invalid ? 'error.main' : 'grey.500',
            borderRadius: 1,
            outline: 'none',
            '&:focus-visible, &:focus': { borderColor: invalid ? 'error.main' : 'primary.main', boxShadow: (theme) => `0 0 0 2px ${invalid ? theme.palette.error.main : theme.palette.primary.main}` },
            '&:disabled': { opacity: 0.6, cursor: 'not-allowed' },
          }}
        />
      ))}
    </Box>
  );
}
