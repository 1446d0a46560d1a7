/** A date and time as the reader writes it ("12 March 2026, 10:05"). */
export const formatDateTime = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/** A date as the reader writes it ("12 Mar 2026"). */
export const formatDate = (iso: string, language: string) => new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
