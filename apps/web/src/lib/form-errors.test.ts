import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { applyServerErrors, failureText, fieldErrorText, SERVER_ERROR } from './form-errors';

interface Form {
  email: string;
  password: string;
  dob: string;
}

describe('server errors on a form', () => {
  it('puts field messages under their fields (the first focused) and answers null when nothing is left', () => {
    const setError = vi.fn();
    const error = new ApiError(400, { email: ['Taken.', 'Really.'], password: ['Too common.'] });
    expect(applyServerErrors<Form>(error, { setError, fields: ['email', 'password'], fallback: 'Oops' })).toBeNull();
    expect(setError).toHaveBeenCalledWith('email', { type: SERVER_ERROR, message: 'Taken. Really.' }, { shouldFocus: true });
    expect(setError).toHaveBeenCalledWith('password', { type: SERVER_ERROR, message: 'Too common.' }, { shouldFocus: false });
  });

  it('answers detail, non_field_errors and fields the form does not show as one general message', () => {
    const setError = vi.fn();
    const error = new ApiError(400, { email: ['Taken.'], signup_code: ['Used.'], non_field_errors: ['Also this.'] });
    expect(applyServerErrors<Form>(error, { setError, fields: ['email'], fallback: 'Oops' })).toBe('Used. Also this.');
    expect(setError).toHaveBeenCalledOnce();
    expect(applyServerErrors<Form>(new ApiError(429, { detail: 'Too many tries. Try again in 15 minutes.' }), { setError, fields: ['email'], fallback: 'Oops' })).toBe(
      'Too many tries. Try again in 15 minutes.',
    );
  });

  it('maps a server field name onto the form field that shows it', () => {
    const setError = vi.fn();
    expect(applyServerErrors<Form>(new ApiError(400, { DOB: ['Invalid date format'] }), { setError, fields: { DOB: 'dob' }, fallback: 'Oops' })).toBeNull();
    expect(setError).toHaveBeenCalledWith('dob', { type: SERVER_ERROR, message: 'Invalid date format' }, { shouldFocus: true });
  });

  it('without setError every message is general', () => {
    expect(applyServerErrors(new ApiError(400, { code: ['The code is invalid or has expired.'] }), { fallback: 'Oops' })).toBe('The code is invalid or has expired.');
    expect(applyServerErrors(new ApiError(403, 'Please confirm your e-mail.'), { fallback: 'Oops' })).toBe('Please confirm your e-mail.');
  });

  it('answers the fallback when the server said nothing readable', () => {
    expect(applyServerErrors(new TypeError('Failed to fetch'), { fallback: 'Oops' })).toBe('Oops');
    expect(applyServerErrors(new ApiError(502, '<html>Bad gateway</html>'), { fallback: 'Oops' })).toBe('Oops');
    expect(applyServerErrors(new ApiError(500, { detail: 'Internal Server Error' }), { fallback: 'Oops' })).toBe('Oops');
    expect(applyServerErrors(new ApiError(400, {}), { fallback: 'Oops' })).toBe('Oops');
    expect(applyServerErrors(new ApiError(404, null), { fallback: 'Oops' })).toBe('Oops');
    expect(applyServerErrors(new ApiError(400, { email: [] }), { fallback: '' })).toBe('');
  });

  it('shows the server words as they are and the form rules through the catalog', () => {
    const t = (key: string) => `«${key}»`;
    expect(fieldErrorText({ type: SERVER_ERROR, message: 'Access code: used. Try again.' }, t)).toBe('Access code: used. Try again.');
    expect(fieldErrorText({ type: 'validate', message: 'validation:emailRequired' }, t)).toBe('«validation:emailRequired»');
    expect(fieldErrorText(undefined, t)).toBeUndefined();
  });

  it("puts the app's sentence before the server's words", () => {
    expect(failureText('There was an error registering 2fa.', new ApiError(400, { detail: 'Already enabled.' }))).toBe('There was an error registering 2fa. Already enabled.');
    expect(failureText('There was an error registering 2fa.', new TypeError('Failed to fetch'))).toBe('There was an error registering 2fa.');
    expect(failureText('Error.', new ApiError(503, null), 'Please try again.')).toBe('Error. Please try again.');
  });
});
