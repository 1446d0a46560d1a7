import { useParams } from 'react-router';
import { LinkCheckPage } from '../../../components/link-check-page';
import { useConfirmEmail } from '../api/confirm-email';

/** The link of the confirmation e-mail: confirms the address on arrival, then offers sign-in. */
export default function EmailConfirmPage() {
  const { uid = '', token = '' } = useParams();
  return <LinkCheckPage check={useConfirmEmail({ uid, token })} ns="auth" texts="confirmEmail" />;
}
