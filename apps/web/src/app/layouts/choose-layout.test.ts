import { describe, expect, it } from 'vitest';
import { chooseLayout, namedLayout } from './choose-layout';

describe('layout choice (§2 route rules)', () => {
  it('a layout named by the route wins over everything', () => {
    expect(chooseLayout({ named: 'limited', pathname: '/healthbook/dashboard', clientId: 'healthbook', access: 'full' })).toBe('limited');
    expect(chooseLayout({ named: 'full', pathname: '/x', clientId: null, access: null })).toBe('full');
  });

  it('an add-user path with a client id uses the minimal layout, whoever asks', () => {
    for (const access of ['full', 'limited', null] as const) {
      expect(chooseLayout({ pathname: '/healthbook/addUser/home', clientId: 'healthbook', access })).toBe('minimal');
    }
  });

  it('a client path with full access uses the full layout; other client paths the limited one', () => {
    expect(chooseLayout({ pathname: '/healthbook/about', clientId: 'healthbook', access: 'full' })).toBe('full');
    expect(chooseLayout({ pathname: '/healthbook/about', clientId: 'healthbook', access: 'limited' })).toBe('limited');
    expect(chooseLayout({ pathname: '/healthbook/login', clientId: 'healthbook', access: null })).toBe('limited');
  });

  it('a path without a client id uses the default layout', () => {
    expect(chooseLayout({ pathname: '/logout', clientId: null, access: 'full' })).toBe('default');
  });

  it('reads the deepest handle that names a layout', () => {
    expect(namedLayout([{ handle: { layout: 'full' } }, { handle: undefined }, { handle: { layout: 'minimal' } }])).toBe('minimal');
    expect(namedLayout([{}, { handle: { other: 1 } }])).toBeUndefined();
  });
});
