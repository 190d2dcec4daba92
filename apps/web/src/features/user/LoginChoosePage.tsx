import { Button } from 'antd-mobile';
import { GlobalOutline, RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLang, LANG_NAMES } from '../../shared/i18n';
import { href, paths } from '../../shared/paths';
import { BrandMark } from '../../shared/ui/BrandMark';
import { useLoginQuery } from './after-login';
import './user.css';

export default function LoginChoosePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useLoginQuery();

  return (
    <div className="v-user-choose">
      <div className="v-user-choose__brand">
        <BrandMark size={72} />
        <h2>{t('app.name')}</h2>
        <p>{t('app.tagline')}</p>
      </div>
      <ul className="v-user-choose__points">
        <li>{t('auth.choosePoint1')}</li>
        <li>{t('auth.choosePoint2')}</li>
        <li>{t('auth.choosePoint3')}</li>
      </ul>
      <div className="v-user-choose__actions">
        <Button
          block
          color="primary"
          size="large"
          shape="rounded"
          onClick={() => navigate(href('login', query))}
        >
          {t('auth.login')}
        </Button>
        <Button
          block
          size="large"
          shape="rounded"
          fill="outline"
          color="primary"
          onClick={() => navigate(href('register', query))}
        >
          {t('auth.register')}
        </Button>
      </div>
      <button type="button" className="v-user-choose__lang" onClick={() => navigate(paths.language)}>
        <GlobalOutline />
        <span>{LANG_NAMES[currentLang()]}</span>
        <RightOutline />
      </button>
    </div>
  );
}
