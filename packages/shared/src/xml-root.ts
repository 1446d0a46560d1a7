/**
 * The local name of an XML text's root element, past a byte-order mark, the XML declaration,
 * processing instructions (a C-CDA's stylesheet), comments and a doctype; null when the text
 * does not open as XML. How both sides tell a C-CDA (root ClinicalDocument) from other files
 * before anything parses it: the web app to choose the conversion, the server to refuse
 * other XML with a clear reason.
 */
export function xmlRootName(text: string): string | null {
  const match = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return match ? match[1]! : null;
}
