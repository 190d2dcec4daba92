import type { VerificationSubmission } from '@verdant/api';
import { Tag } from 'antd-mobile';
import { CheckCircleFill, ClockCircleFill, CloseCircleFill, ExclamationCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';

export type State = 'none' | 'pending' | 'verified' | 'rejected';

const COLOR = { none: 'default', pending: 'warning', verified: 'success', rejected: 'danger' } as const;

/** Not verified / under review / verified / rejected, as a coloured tag. */
export function StateTag({ state }: { state: State }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[state]} fill="outline" data-state={state}>
      {t(`verificationState.${state}`)}
    </Tag>
  );
}

/** The state of one level with what it means; a rejection shows the operator's reason. */
export function StateCard({
  state,
  submission,
}: {
  state: State;
  submission: VerificationSubmission | null;
}) {
  const { t } = useTranslation();
  const Icon =
    state === 'verified'
      ? CheckCircleFill
      : state === 'pending'
        ? ClockCircleFill
        : state === 'rejected'
          ? CloseCircleFill
          : ExclamationCircleFill;
  return (
    <section className={`v-verification-state v-verification-state--${state}`} role="status">
      <Icon className="v-verification-state__icon" />
      <div>
        <strong>{t(`verificationState.${state}`)}</strong>
        <p>{t(`kyc.stateHint.${state}`)}</p>
        {state === 'rejected' && submission?.reject_reason && (
          <p className="v-verification-state__reason">
            {t('kyc.rejectReason')}: {submission.reject_reason}
          </p>
        )}
      </div>
    </section>
  );
}
