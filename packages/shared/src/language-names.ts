/**
 * Languages people name in free text (a provider's "languages": "Greek", "English", "ελληνικά",
 * "fr"), shown in the reader's language: a name or code recognised in English or Greek becomes Intl.DisplayNames' name in the reader's language; anything else is
 * shown as it was written.
 */

/** ISO 639-1 codes: the languages recognised. */
const CODES = (
  'af am ar as az be bg bn bo br bs ca cs cy da de dz el en eo es et eu fa fi fo fr fy ga gd gl gu ha he hi hr ht hu hy id ig is it ja jv ' +
  'ka kk km kn ko ku ky la lb lo lt lv mg mi mk ml mn mr ms mt my nb ne nl nn no ny or pa pl ps pt qu rm ro ru rw sa sd si sk sl sm sn so ' +
  'sq sr sv sw ta te tg th ti tk tl to tr tt ug uk ur uz vi wo xh yi yo zh zu'
).split(' ');

/** The languages whose names for languages are recognised. */
const NAMED_IN = ['en', 'el'];

const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').trim().toLowerCase();

let known: Map<string, string> | null = null;
/** Every recognised spelling (folded) → its code. */
function spellings(): Map<string, string> {
  if (known) return known;
  known = new Map();
  const namers = NAMED_IN.map((l) => new Intl.DisplayNames([l], { type: 'language' }));
  for (const code of CODES) {
    known.set(code, code);
    for (const namer of namers) known.set(fold(namer.of(code) ?? code), code);
  }
  return known;
}

/** The language's code when `given` names one (in English or Greek, or as its code), else null. */
export function languageCode(given: string): string | null {
  return spellings().get(fold(given)) ?? null;
}

/** `given` as the reader names it: "Greek" reads "Ελληνικά" to a Greek reader; an unknown name stays as written. */
export function languageName(given: string, reader: string): string {
  const code = languageCode(given);
  if (!code) return given;
  const name = new Intl.DisplayNames([reader], { type: 'language', fallback: 'none' }).of(code);
  return name ? name.charAt(0).toLocaleUpperCase(reader) + name.slice(1) : given;
}
