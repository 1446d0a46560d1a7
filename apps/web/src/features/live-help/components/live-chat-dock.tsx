import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { useHubFeatures } from '../../../lib/hub-features';
import { chatStore } from '../chat-store';
import { ChatDialog } from './chat-dialog';

export interface LiveChatDockProps {
  org: OrganizationDetail;
  clientId: string;
}

/**
 * The chat dialog's place in the signed-in shell (mounted once, so the chat survives
 * navigation). On app load (a reload, signing in again) the user's open chat is asked of the
 * server and rejoined.
 */
export default function LiveChatDock({ org, clientId }: LiveChatDockProps) {
  const { i18n } = useTranslation();
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  useEffect(() => {
    void chatStore.restore();
  }, []);
  return <ChatDialog clientId={clientId} documentsActive={features.status('document-center') === 'active'} />;
}
