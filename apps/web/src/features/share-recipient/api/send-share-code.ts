import { useMutation } from '@tanstack/react-query';
import type { ShareLinkBody } from '@healthbook/shared/contracts/sharing';
import { shareRequest } from './share-fetch';

export interface ShareCodeSent {
  /** The masked address the code went to. */
  sent_to: string;
  /** Seconds the code is valid. */
  expires_in: number;
}

/** POST /api/v1/sharing/public/code/ {uid, token} (link shares): e-mails a six-digit code; 429 when asked too often. */
export const sendShareCode = (link: ShareLinkBody) => shareRequest<ShareCodeSent>('/api/v1/sharing/public/code/', { method: 'POST', body: link });

export const useSendShareCode = () => useMutation({ mutationFn: sendShareCode });
