import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, List, Popup, Switch, Toast } from 'antd-mobile';
import {
  DeleteOutline,
  GlobalOutline,
  InformationCircleOutline,
  LockOutline,
  TagOutline,
  UserOutline,
} from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../../shared/account';
import { currentLang, LANG_NAMES } from '../../shared/i18n';
import { paths } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { clearStorageExcept, KEPT_ON_CLEAR } from '../../shared/storage';
import { setTheme, useTheme } from '../../shared/theme';
import '../../shared/ui/form.css';
import './settings.css';
import { confirmSignOut } from './sign-out';

export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const loggedIn = isLoggedIn(session);
  const theme = useTheme();
  const [aboutOpen, setAboutOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);

  const clearCache = async () => {
    const ok = await Dialog.confirm({
      title: t('settings.clearCache'),
      content: t('settings.clearCacheConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    // Keeps the session, the language and the theme: clearing a cache is not logging out.
    queryClient.clear();
    clearStorageExcept(KEPT_ON_CLEAR);
    Toast.show({ icon: 'success', content: t('settings.cacheCleared') });
  };

  const signOut = async () => {
    if (!(await confirmSignOut(t))) return;
    setLoggingOut(true);
    await logout(queryClient);
    setLoggingOut(false);
    Toast.show({ icon: 'success', content: t('settings.loggedOut') });
  };

  return (
    <div className="v-settings">
      <List className="v-settings-list">
        <List.Item
          prefix={<GlobalOutline />}
          extra={LANG_NAMES[currentLang()]}
          onClick={() => navigate(paths.language)}
        >
          {t('settings.language')}
        </List.Item>
        <List.Item prefix={<UserOutline />} onClick={() => navigate(paths.account)}>
          {t('settings.account')}
        </List.Item>
        <List.Item prefix={<LockOutline />} onClick={() => navigate(paths.security)}>
          {t('settings.security')}
        </List.Item>
      </List>

      <List className="v-settings-list">
        <List.Item
          prefix={<span className="v-settings-theme-dot" aria-hidden="true" />}
          extra={
            <Switch
              checked={theme === 'dark'}
              onChange={(dark) => setTheme(dark ? 'dark' : 'light')}
              aria-label={t('settings.darkMode')}
            />
          }
        >
          {t('settings.darkMode')}
        </List.Item>
        <List.Item prefix={<DeleteOutline />} onClick={clearCache}>
          {t('settings.clearCache')}
        </List.Item>
        <List.Item prefix={<InformationCircleOutline />} onClick={() => setAboutOpen(true)}>
          {t('settings.about')}
        </List.Item>
        <List.Item prefix={<TagOutline />} extra={__APP_VERSION__}>
          {t('settings.currentVersion')}
        </List.Item>
      </List>

      {loggedIn && (
        <div className="v-settings__actions">
          <Button block size="large" className="v-danger-button" loading={loggingOut} onClick={signOut}>
            {t('settings.logout')}
          </Button>
        </div>
      )}

      <Popup
        visible={aboutOpen}
        onMaskClick={() => setAboutOpen(false)}
        onClose={() => setAboutOpen(false)}
        showCloseButton
        bodyClassName="v-sheet"
      >
        <h3 className="v-sheet__title">{t('about.title')}</h3>
        <div className="v-sheet__body">
          <p>{t('about.p1')}</p>
          <p>{t('about.p2')}</p>
          <p>{t('about.p3')}</p>
          <p className="v-settings-about__version">{t('about.version', { version: __APP_VERSION__ })}</p>
        </div>
        <Button block color="primary" onClick={() => setAboutOpen(false)}>
          {t('common.ok')}
        </Button>
      </Popup>
    </div>
  );
}
