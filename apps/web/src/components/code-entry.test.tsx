import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { i18n, i18nReady } from '../lib/i18n';
import { CodeEntry } from './code-entry';

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
const values = () => boxes().map((b) => b.value).join('');
const type = (index: number, value: string) => fireEvent.change(boxes()[index]!, { target: { value } });
const key = (index: number, k: string) => fireEvent.keyDown(boxes()[index]!, { key: k });

function setup(props: Partial<Parameters<typeof CodeEntry>[0]> = {}) {
  const onComplete = vi.fn();
  const onChange = vi.fn();
  render(<CodeEntry label="Verification code" onComplete={onComplete} onChange={onChange} {...props} />);
  return { onComplete, onChange };
}

describe('code entry', () => {
  beforeAll(async () => {
    await i18nReady;
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('account');
  });
  afterEach(cleanup);

  it('shows six numeric boxes named "Digit N of 6" in a labelled group', () => {
    setup();
    expect(screen.getByRole('group', { name: 'Verification code' })).toBeTruthy();
    expect(boxes()).toHaveLength(6);
    boxes().forEach((box, i) => {
      expect(box.getAttribute('aria-label')).toBe(`Digit ${i + 1} of 6`);
      expect(box.getAttribute('inputmode')).toBe('numeric');
    });
    expect(screen.getByRole('textbox', { name: 'Digit 3 of 6' })).toBe(boxes()[2]);
  });

  it('takes one digit per box, moves on, and ignores anything but digits', () => {
    const { onChange } = setup();
    type(0, '4');
    expect(boxes()[0]!.value).toBe('4');
    expect(document.activeElement).toBe(boxes()[1]);
    type(1, 'a');
    type(1, ' ');
    expect(boxes()[1]!.value).toBe('');
    expect(document.activeElement).toBe(boxes()[1]);
    type(1, '2');
    expect(values()).toBe('42');
    expect(onChange).toHaveBeenLastCalledWith('42');
  });

  it('a digit typed beside the one in a box goes to the next box', () => {
    setup();
    type(0, '1');
    type(0, '17');
    expect(values()).toBe('17');
  });

  it('emits the code only when all six boxes are filled', () => {
    const { onComplete } = setup();
    '12345'.split('').forEach((d, i) => type(i, d));
    expect(onComplete).not.toHaveBeenCalled();
    type(5, '6');
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('123456');
  });

  it('paste fills the boxes (digits only) and emits the full code', () => {
    const { onComplete } = setup();
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => ' 98-76 54 ' } });
    expect(values()).toBe('987654');
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('987654');
  });

  it('paste of a few digits fills from the box it lands in', () => {
    const { onComplete } = setup();
    fireEvent.paste(boxes()[2]!, { clipboardData: { getData: () => '55' } });
    expect(boxes().map((b) => b.value)).toEqual(['', '', '5', '5', '', '']);
    expect(document.activeElement).toBe(boxes()[4]);
    expect(onComplete).not.toHaveBeenCalled();
  });

  it('a whole code put in one box (one-time-code autofill) fills every box', () => {
    const { onComplete } = setup();
    type(0, '246810');
    expect(values()).toBe('246810');
    expect(onComplete).toHaveBeenCalledWith('246810');
  });

  it('Backspace clears the box; on an empty box it moves back and clears that one', () => {
    const { onChange } = setup();
    '123'.split('').forEach((d, i) => type(i, d));
    boxes()[2]!.focus();
    key(2, 'Backspace');
    expect(boxes().map((b) => b.value).slice(0, 3)).toEqual(['1', '2', '']);
    expect(document.activeElement).toBe(boxes()[2]);
    key(2, 'Backspace');
    expect(boxes().map((b) => b.value).slice(0, 3)).toEqual(['1', '', '']);
    expect(document.activeElement).toBe(boxes()[1]);
    expect(onChange).toHaveBeenLastCalledWith('1');
  });

  it('ArrowLeft and ArrowRight move between the boxes, stopping at the ends', () => {
    setup();
    boxes()[0]!.focus();
    key(0, 'ArrowLeft');
    expect(document.activeElement).toBe(boxes()[0]);
    key(0, 'ArrowRight');
    expect(document.activeElement).toBe(boxes()[1]);
    key(1, 'ArrowRight');
    expect(document.activeElement).toBe(boxes()[2]);
    key(2, 'ArrowLeft');
    expect(document.activeElement).toBe(boxes()[1]);
    boxes()[5]!.focus();
    key(5, 'ArrowRight');
    expect(document.activeElement).toBe(boxes()[5]);
  });

  it('Enter submits a complete code, and nothing while boxes are empty', () => {
    const { onComplete } = setup();
    key(0, 'Enter');
    expect(onComplete).not.toHaveBeenCalled();
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '112233' } });
    onComplete.mockClear();
    key(5, 'Enter');
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('112233');
  });

  it('is disabled while trying, and marks every box invalid', () => {
    const { unmount } = render(<CodeEntry label="Code" onComplete={() => undefined} disabled />);
    expect(boxes().every((b) => b.disabled)).toBe(true);
    unmount();
    render(<CodeEntry label="Code" onComplete={() => undefined} invalid />);
    expect(boxes().every((b) => b.getAttribute('aria-invalid') === 'true')).toBe(true);
  });

  it('focuses the first box when asked', () => {
    setup({ autoFocus: true });
    expect(document.activeElement).toBe(boxes()[0]);
  });
});
