/** A concrete address for a route pattern: params filled with well-formed values. */
export function concreteUrl(url: string): string {
  return url
    .replace(/:uuid/g, '0b7b5c0e-8e2f-4b8e-9a57-6f7ee0c1d2a3')
    .replace(/:id\b/g, '1')
    .replace(/:[A-Za-z_]+/g, 'x')
    .replace(/\*$/, '');
}
