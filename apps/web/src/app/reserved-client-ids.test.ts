import { describe, expect, it } from 'vitest';
import { isReservedClientId, validateNewClientId } from '@healthbook/shared/client-id';
import { routes } from './router';

interface RouteLike {
  path?: string;
  children?: RouteLike[];
}

/** The first segment of every path the router answers itself, before `/:clientId` (and the organisation's not-found page). */
function topLevelSegments(list: RouteLike[]): string[] {
  const segments: string[] = [];
  for (const route of list) {
    if (route.path === undefined) {
      segments.push(...topLevelSegments(route.children ?? []));
      continue;
    }
    const first = route.path.replace(/^\//, '').split('/')[0] ?? '';
    if (first && !first.startsWith(':') && first !== '*') segments.push(first);
  }
  return segments;
}

describe('client ids the router uses', () => {
  it('every top-level path of the router is a reserved client id, so no organisation can shadow it', () => {
    const segments = topLevelSegments(routes as RouteLike[]);
    expect(segments).toEqual(expect.arrayContaining(['login', 'logout', 'register', 'code-retrieval', 'email', 'password']));
    for (const segment of segments) expect(isReservedClientId(segment), segment).toBe(true);
  });

  it("the organisation's own not-found page (404) is reserved too", () => {
    expect(validateNewClientId('404')).not.toBe(true);
  });
});
