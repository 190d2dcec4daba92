import { useQuery } from '@tanstack/react-query';
import { List, Tag } from 'antd-mobile';
import { KeyOutline, LockOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { hasFundPasswordQuery } from '../../shared/account';
import { paths } from '../../shared/paths';
import './settings.css';

export default function SecurityPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hasFund = useQuery(hasFundPasswordQuery());

  return (
    <div className="v-settings">
      <List className="v-settings-list">
        <List.Item
          prefix={<KeyOutline />}
          description={t('security.loginPasswordHint')}
          onClick={() => navigate(paths.changePassword)}
        >
          {t('security.loginPassword')}
        </List.Item>
        <List.Item
          prefix={<LockOutline />}
          description={t('security.fundPasswordHint')}
          extra={
            hasFund.data === undefined ? null : (
              <Tag color={hasFund.data ? 'success' : 'warning'} fill="outline">
                {hasFund.data ? t('security.set') : t('security.notSet')}
              </Tag>
            )
          }
          onClick={() => navigate(paths.changePayPassword)}
        >
          {t('security.fundPassword')}
        </List.Item>
      </List>
    </div>
  );
}
