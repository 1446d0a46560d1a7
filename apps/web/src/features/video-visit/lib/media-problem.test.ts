import { describe, expect, it } from 'vitest';
import { browserFamily, mediaProblemOf } from './media-problem';

describe('why the camera or microphone could not be used', () => {
  it('reads the error names browsers give', () => {
    expect(mediaProblemOf(new DOMException('no', 'NotAllowedError'))).toBe('denied');
    expect(mediaProblemOf(new DOMException('no', 'NotFoundError'))).toBe('noDevice');
    expect(mediaProblemOf(new DOMException('busy', 'NotReadableError'))).toBe('inUse');
    expect(mediaProblemOf(new Error('odd'))).toBe('unknown');
  });

  it('tells the browser family from its user agent', () => {
    expect(browserFamily('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36')).toBe('chrome');
    expect(browserFamily('Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0')).toBe('firefox');
    expect(browserFamily('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('safari');
  });
});
