import { describe, expect, it } from 'vitest';
import { fold, HelpIndex, processTerm } from './help.search';

describe('help search terms', () => {
  it('folds case, accents and diaeresis', () => {
    expect(fold('ΡΑΝΤΕΒΟΎ')).toBe('ραντεβου');
    expect(fold('Τηλεϊατρική')).toBe('τηλειατρικη');
  });

  it.each([
    ['en', 'booking', 'book'],
    ['en', 'booked', 'book'],
    ['en', 'Reminders', 'remind'],
    ['el', 'ραντεβού', 'ραντεβ'],
    ['el', 'ραντεβουδάκι', 'ραντεβ'],
    ['el', 'ΡΑΝΤΕΒΟΥ', 'ραντεβ'],
    ['el', 'υπενθυμίσεις', 'υπενθυμ'],
  ] as const)('stems %s "%s" to "%s"', (lang, word, stem) => {
    expect(processTerm(word, lang)).toBe(stem);
  });

  it('drops common words', () => {
    expect(processTerm('the', 'en')).toBeNull();
    expect(processTerm('και', 'el')).toBeNull();
    expect(processTerm('Πώς', 'el')).toBeNull();
  });
});

describe('a help index', () => {
  const en = new HelpIndex('en', [
    { id: 'a', title: 'How to book a telehealth visit', text: 'Choose a provider and a free time.', tags: 'appointment' },
    { id: 'b', title: 'Two-step verification', text: 'A code as well as your password.', tags: 'security' },
  ]);
  const el = new HelpIndex('el', [
    { id: 'a', title: 'Πώς να κλείσετε ραντεβού τηλεϊατρικής', text: 'Διαλέξτε γιατρό και ελεύθερη ώρα.', tags: 'βιντεοκλήση' },
    { id: 'b', title: 'Επαλήθευση δύο βημάτων', text: 'Ένας κωδικός εκτός από τον κωδικό πρόσβασης.', tags: 'ασφάλεια' },
  ]);

  it('finds by another form of a word, a prefix and a typo', () => {
    expect(en.query('booking')[0]?.id).toBe('a');
    expect(en.query('verif')[0]?.id).toBe('b');
    expect(en.query('pasword')[0]?.id).toBe('b');
  });

  it('finds Greek words whatever their ending or accents', () => {
    expect(el.query('ραντεβουδάκι')[0]?.id).toBe('a');
    expect(el.query('ΤΗΛΕΙΑΤΡΙΚΗ')[0]?.id).toBe('a');
    expect(el.query('επαληθευση')[0]?.id).toBe('b');
  });

  it('finds nothing for unrelated words or only common ones', () => {
    expect(en.query('xylophone quantum')).toEqual([]);
    expect(en.query('the and of')).toEqual([]);
  });
});
