import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { promptFundPassword, promptVerification } from './prompts';
import '../wallet.css';

/** An amber line above a form that cannot be sent yet; tapping it says why and leads to the fix. */
function WarnBanner({ text, onClick }: { text: string; onClick: () => void }) {
  return (
    <button type="button" className="v-wallet-banner v-wallet-banner--warn" onClick={onClick}>
      {text}
    </button>
  );
}

/** No fund password yet: withdrawals and withdrawal addresses need one (spec §5/§8). */
export function FundPasswordBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <WarnBanner
      text={t('withdraw.fundPasswordBanner')}
      onClick={() => void promptFundPassword(t, navigate)}
    />
  );
}

/** Account not verified: withdrawals need it (spec §8). */
export function VerificationBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <WarnBanner text={t('withdraw.notVerifiedBanner')} onClick={() => void promptVerification(t, navigate)} />
  );
}
