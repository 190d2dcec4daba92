import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NICKNAME_MAX, NICKNAME_MIN, type VerificationState } from '@verdant/api';
import { Button, Dialog, Input, List, Tag, Toast } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout, userCenterQuery, userKeys } from '../../shared/account';
import { formatPhone, maskEmail } from '../../shared/format';
import { paths } from '../../shared/paths';
import { useSession } from '../../shared/session';
import { QueryView } from '../../shared/ui/QueryView';
import { updateNickname } from './api';
import { BindContactSheet, type BindKind } from './BindContactSheet';
import './settings.css';
import { confirmSignOut } from './sign-out';

const TAG_COLOR: Record<VerificationState, 'success' | 'warning' | 'danger' | 'default'> = {
  verified: 'success',
  pending: 'warning',
  rejected: 'danger',
  none: 'default',
};

export default function AccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stored = useSession().user;
  const center = useQuery(userCenterQuery());
  const user = center.data ?? stored;
  const [editing, setEditing] = useState(false);
  const [nickname, setNickname] = useState('');
  const [nicknameError, setNicknameError] = useState<string | null>(null);
  const [binding, setBinding] = useState<BindKind | null>(null);

  const rename = useMutation({
    mutationFn: (nickname: string) => updateNickname(nickname),
    onSuccess: ({ message }) => {
      setEditing(false);
      Toast.show({ icon: 'success', content: message || t('common.operationSuccess') });
      void queryClient.invalidateQueries({ queryKey: userKeys.center() });
    },
  });

  // the stored copy shows at once; the server's answer replaces it
  const shown = { ...center, data: user ?? undefined, isPending: !user && center.isPending };
  return (
    <QueryView query={shown}>
      {(user) => {
        const copyInvite = async () => {
          try {
            await navigator.clipboard.writeText(user.invite_code);
            Toast.show({ icon: 'success', content: t('common.copied') });
          } catch {
            Toast.show({ content: t('common.copyFailed') });
          }
        };

        const signOut = async () => {
          if (!(await confirmSignOut(t))) return;
          await logout(queryClient);
          Toast.show({ icon: 'success', content: t('settings.loggedOut') });
          navigate(paths.home, { replace: true });
        };

        // The save button shows a spinner while this promise runs (antd-mobile Dialog actions).
        const saveNickname = async () => {
          const value = nickname.trim();
          if (!value) return setNicknameError(t('validation.nicknameRequired'));
          if ([...value].length < NICKNAME_MIN || [...value].length > NICKNAME_MAX)
            return setNicknameError(t('validation.nicknameLength', { min: NICKNAME_MIN, max: NICKNAME_MAX }));
          await rename.mutateAsync(value).catch(() => {}); // a refusal was shown by the client
        };

        const notBound = <span className="v-settings-muted">{t('account.notBound')}</span>;
        // an unbound contact is a link to bind it; a bound one cannot be changed here
        const bindable = <span className="v-settings-bind">{t('account.bindNow')}</span>;

        return (
          <div className="v-settings">
            <List className="v-settings-list">
              <List.Item
                extra={user.nickname || notBound}
                onClick={() => {
                  setNickname(user.nickname);
                  setNicknameError(null);
                  setEditing(true);
                }}
              >
                {t('account.nickname')}
              </List.Item>
              {/* the user's own login name, in full; the contact rows below are masked */}
              <List.Item extra={<span className="v-selectable">{user.account}</span>} arrowIcon={false}>
                {t('account.account')}
              </List.Item>
              <List.Item
                extra={user.mobile ? formatPhone(user.area_code, user.mobile) : bindable}
                arrowIcon={!user.mobile}
                onClick={user.mobile ? undefined : () => setBinding('mobile')}
              >
                {t('account.phone')}
              </List.Item>
              <List.Item
                extra={user.email ? maskEmail(user.email) : bindable}
                arrowIcon={!user.email}
                onClick={user.email ? undefined : () => setBinding('email')}
              >
                {t('account.email')}
              </List.Item>
              <List.Item
                extra={
                  <span className="v-settings-copy">
                    {user.invite_code}
                    <FileOutline />
                  </span>
                }
                onClick={copyInvite}
                arrowIcon={false}
              >
                {t('account.inviteCode')}
              </List.Item>
              <List.Item
                extra={
                  <Tag color={TAG_COLOR[user.verification]} fill="outline">
                    {t(`verificationState.${user.verification}`)}
                  </Tag>
                }
                onClick={() => navigate(paths.verification)}
              >
                {t('account.verification')}
              </List.Item>
            </List>

            <div className="v-settings__actions">
              <Button block size="large" className="v-danger-button" onClick={signOut}>
                {t('settings.logout')}
              </Button>
            </div>

            <BindContactSheet kind={binding} onClose={() => setBinding(null)} />

            <Dialog
              visible={editing}
              title={t('account.editNickname')}
              closeOnMaskClick
              onClose={() => setEditing(false)}
              content={
                <div className="v-settings-dialog-field">
                  <Input
                    value={nickname}
                    onChange={(v) => {
                      setNickname(v);
                      setNicknameError(null);
                    }}
                    maxLength={NICKNAME_MAX}
                    placeholder={t('account.nicknamePlaceholder', { min: NICKNAME_MIN, max: NICKNAME_MAX })}
                    aria-label={t('account.nickname')}
                    clearable
                  />
                  {nicknameError && (
                    <p className="v-settings-field-error" role="alert">
                      {nicknameError}
                    </p>
                  )}
                </div>
              }
              actions={[
                [
                  { key: 'cancel', text: t('common.cancel'), onClick: () => setEditing(false) },
                  { key: 'save', text: t('common.save'), bold: true, onClick: saveNickname },
                ],
              ]}
            />
          </div>
        );
      }}
    </QueryView>
  );
}
