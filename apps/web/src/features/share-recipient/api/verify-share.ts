import { useMutation } from '@tanstack/react-query';
import type { ShareSession, VerifyShareBody } from '@healthbook/shared/contracts/sharing';
import { shareSession } from '../share-session';
import { shareRequest } from './share-fetch';

/**
 * POST /api/v1/sharing/public/verify/ {uid, token, code}: the e-mailed code (link) or the
 * passcode (QR). 200 {session, expires_at}; a wrong one 400 {code: ["… N attempts left"]}; the
 * last wrong one 410 {reason: locked}.
 */
export const verifyShare = (body: VerifyShareBody) => shareRequest<ShareSession>('/api/v1/sharing/public/verify/', { method: 'POST', body });

/** The session is kept for this browser session only (session storage). */
export const useVerifyShare = () =>
  useMutation({
    mutationFn: verifyShare,
    onSuccess: ({ session, expires_at }) => shareSession.setSession(session, expires_at),
  });
