import { describe, expect, it } from 'vitest';
import type { CreatedShare } from '@healthbook/shared/contracts/sharing';
import { withoutSecrets } from './share-cache';

describe('a share kept in the cache', () => {
  it('keeps nothing that is shown once', () => {
    const created = {
      id: 3,
      status: 'active',
      recipient_name: 'Dr Eleni Kosta',
      url: 'http://localhost/healthbook/sharedqrcoderecords/uid/token',
      passcode: '482913',
      smart_health_link: 'shlink:/eyJ1cmwiOiJ...',
    } as unknown as CreatedShare;
    expect(withoutSecrets(created)).toEqual({ id: 3, status: 'active', recipient_name: 'Dr Eleni Kosta' });
  });
});
