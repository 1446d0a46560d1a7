import { useParams } from 'react-router';
import { LinkCheckPage } from '../../../components/link-check-page';
import { useConfirmEmailChange } from '../api/confirm-email-change';

/** The link of the e-mail-change mail (no sign-in needed): changes the sign-in address on arrival. */
export default function EmailChangeConfirmPage() {
  const { uid = '', token = '' } = useParams();
  return <LinkCheckPage check={useConfirmEmailChange({ uid, token })} ns="account" texts="emailChange.confirm" />;
}
