import { describe, expect, it } from 'vitest';
import { catalogTexts, placeholders } from '../../test/catalogs';
import en from '../../locales/en/liveHelp.json';
import el from '../../locales/el/liveHelp.json';


describe('liveHelp catalogs', () => {
  const english = catalogTexts(en);
  const greek = catalogTexts(el);

  it('Greek has every English key, with the same placeholders, translated', () => {
    expect(Object.keys(greek).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(greek)) {
      expect(placeholders(text), key).toEqual(placeholders(english[key]!));
      if (/[a-z]{3}/i.test(english[key]!.replace(/\{\{\s*\w+\s*\}\}|PDF/g, ''))) expect(text, key).not.toBe(english[key]);
    }
  });

  it("keeps the specification's English texts word for word", () => {
    expect(english['dialog.wait.text']).toBe('Your secure chat session will begin soon. You are in queue');
    expect(english['dialog.wait.loading']).toBe('loading...');
    expect(english['dialog.wait.unavailable']).toBe("We're sorry, a provider is not able to respond at the moment. Please try again later.");
    expect(english['dialog.idlePrompt']).toBe('Please respond to keep the chat going. Otherwise the chat will end if there is no activity.');
    expect(english['dialog.idleEnd']).toBe('We’re sorry, a provider appears to be unavailable or not responding at the moment. Please try again later.');
    expect(english['dialog.message']).toBe('Your Message');
    expect(english['dialog.sendingAttachment']).toBe('Sending attachment');
    expect(english['dialog.close']).toBe('Close Chat');
  });
});
