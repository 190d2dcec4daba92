import { useQuery } from '@tanstack/react-query';
import { List } from 'antd-mobile';
import { FileOutline, UserContactOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../shared/paths';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { verificationStatusQuery } from './api';
import { StateTag } from './StateCard';
import './verification.css';

/** pages/verification/index: the two levels and where each stands. */
export default function VerificationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useQuery(verificationStatusQuery());

  return (
    <QueryView query={status}>
      {(s) => {
        const basicDone = s.verification === 'verified';

        return (
          <PullToRefresh onRefresh={() => status.refetch()}>
            <div className="v-verification">
              <p className="v-verification__lead">{t('kyc.lead')}</p>
              <List className="v-verification-list">
                <List.Item
                  prefix={<UserContactOutline />}
                  description={
                    s.verification === 'rejected' && s.basic?.reject_reason
                      ? `${t('kyc.rejectReason')}: ${s.basic.reject_reason}`
                      : t('kyc.basicHint')
                  }
                  extra={<StateTag state={s.verification} />}
                  onClick={() => navigate(paths.verificationBasic)}
                >
                  {t('kyc.basic')}
                </List.Item>
                <List.Item
                  prefix={<FileOutline />}
                  description={
                    !basicDone
                      ? t('kyc.basicFirst')
                      : s.advanced_verification === 'rejected' && s.advanced?.reject_reason
                        ? `${t('kyc.rejectReason')}: ${s.advanced.reject_reason}`
                        : t('kyc.advancedHint')
                  }
                  extra={<StateTag state={s.advanced_verification} />}
                  onClick={() => navigate(paths.verificationAdvanced)}
                >
                  {t('kyc.advanced')}
                </List.Item>
              </List>
            </div>
          </PullToRefresh>
        );
      }}
    </QueryView>
  );
}
