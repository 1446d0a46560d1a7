/**
 * Search of the complaint list (zod-free: the web app uses it in its Autocomplete). Case and
 * accents do not matter ("πονοκεφαλος" finds "Πονοκέφαλος"), nor final sigma; every word typed
 * must start a word of the name or of one of its synonyms, or appear inside it.
 */
export function searchNormalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/ς/g, 'σ').replace(/\s+/g, ' ').trim();
}

/** Whether what was typed matches any of the texts. */
export function matchesSearch(texts: readonly string[], query: string): boolean {
  const words = searchNormalize(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  return texts.some((text) => {
    const haystack = searchNormalize(text);
    return words.every((word) => haystack.includes(word));
  });
}
