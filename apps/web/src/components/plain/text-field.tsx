import { useId, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  error?: string | undefined;
  /** After the input, inside the outline (the password field's show/hide button). */
  endAdornment?: ReactNode;
}

/**
 * An outlined text field that looks like MUI's (components/text-input.tsx): floating label,
 * notched outline, the error or a blank line below; the error is announced (role="alert") and
 * the input points at it (aria-describedby). Plain elements and plain.css: no MUI on the sign-in page.
 */
export function TextField({ label, error, endAdornment, required, id, value, onFocus, onBlur, ...input }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const helperId = `${inputId}-helper`;
  const [focused, setFocused] = useState(false);
  const [autofilled, setAutofilled] = useState(false);
  const shrink = focused || autofilled || value !== '';
  const classes = ['hb-field', shrink && 'hb-field-shrink', focused && 'hb-field-focused', error && 'hb-field-error'].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <label className="hb-field-label" htmlFor={inputId}>
        {label}
        {required && (
          <span aria-hidden="true" className="hb-field-asterisk">
            {'\u2009*'}
          </span>
        )}
      </label>
      <div className={endAdornment ? 'hb-field-box hb-field-box-end' : 'hb-field-box'}>
        <input
          id={inputId}
          className="hb-field-input"
          value={value}
          required={required}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? helperId : undefined}
          onFocus={(e) => {
            setFocused(true);
            onFocus?.(e);
          }}
          onBlur={(e) => {
            setFocused(false);
            onBlur?.(e);
          }}
          onAnimationStart={(e) => {
            if (e.animationName === 'hb-autofill') setAutofilled(true);
            else if (e.animationName === 'hb-autofill-cancel') setAutofilled(false);
          }}
          {...input}
        />
        {endAdornment && <div className="hb-field-adornment">{endAdornment}</div>}
        <fieldset aria-hidden="true" className="hb-field-outline">
          <legend>
            <span>{required ? `${label} *\u2009*` : label}</span>
          </legend>
        </fieldset>
      </div>
      <p id={helperId} className="hb-field-helper" role={error ? 'alert' : undefined}>
        {error ?? (
          <span className="notranslate" aria-hidden="true">
            {'\u200b'}
          </span>
        )}
      </p>
    </div>
  );
}
