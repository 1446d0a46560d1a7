import MiniSearch, { type SearchResult } from 'minisearch';
import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as greekStemmer } from '@orama/stemmers/greek';
import type { Language } from '@healthbook/shared';

/**
 * Full-text search of the help area (MiniSearch), with stemming per language: "booking" finds
 * "book", "ραντεβουδάκι" finds "ραντεβού". Terms are lower-cased, their accents and diaeresis
 * folded (the Greek stemmer folds most, not all: "τηλεϊατρική"), common words dropped, then
 * stemmed. Prefix and fuzzy matching catch half-typed and misspelt words; titles weigh most.
 */

const STOP_WORDS: Record<Language, ReadonlySet<string>> = {
  en: new Set(
    'a an and are as at be by can do does for from get how i if in into is it its me my no not of on or our so that the their them then there this to up us was we what when where which who why will with you your'.split(' '),
  ),
  el: new Set(
    'ο η το οι τα του της των τον την στο στη στην στον στα στις στους σε και ή να θα με για από ως πως πώς τι τί ποιος ποια ποιο πού που είναι ειναι μου σου μας σας του τους δεν μη μην ένα ενα μια μία έναν εγώ εσύ αυτό αυτη αυτή αυτός κι ας αν'.split(' ').map(fold),
  ),
};

const STEMMERS: Record<Language, (word: string) => string> = { en: englishStemmer, el: greekStemmer };

/** Lower case without accents or diaeresis (NFD, combining marks removed), final sigma as σ. */
export function fold(term: string): string {
  return term.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC').replace(/ς/g, 'σ');
}

/** One term as indexed and searched in `lang`: null drops it (a common word, nothing left). */
export function processTerm(term: string, lang: Language): string | null {
  const folded = fold(term);
  if (!folded || STOP_WORDS[lang].has(folded)) return null;
  // The Greek stemmer expects a final sigma where a word ends in one.
  const stemmed = lang === 'el' ? fold(STEMMERS.el(folded.replace(/σ$/, 'ς'))) : STEMMERS.en(folded);
  return stemmed || folded;
}

/** Words: letters and digits of any script (so "e-mail", "2fa" and "PHQ-9" split sensibly). */
const tokenize = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

export interface SearchDoc {
  id: string;
  title: string;
  text: string;
  tags: string;
}

export interface SearchHit {
  id: string;
  score: number;
}

/** An index over documents in one language. */
export class HelpIndex {
  private readonly search: MiniSearch<SearchDoc>;

  constructor(
    readonly lang: Language,
    docs: SearchDoc[],
  ) {
    this.search = new MiniSearch<SearchDoc>({
      fields: ['title', 'text', 'tags'],
      storeFields: [],
      tokenize,
      processTerm: (term) => processTerm(term, lang),
      searchOptions: {
        boost: { title: 3, tags: 2 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    this.search.addAll(docs);
  }

  /** The best matches first; nothing for a query that has no searchable word. */
  query(text: string, limit = 50): SearchHit[] {
    const results: SearchResult[] = this.search.search(text);
    return results.slice(0, limit).map((r) => ({ id: String(r.id), score: r.score }));
  }
}
