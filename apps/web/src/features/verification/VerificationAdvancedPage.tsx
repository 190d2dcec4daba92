import { useQuery } from '@tanstack/react-query';
import type { RealName2Body } from '@verdant/api';
import { Button, Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../shared/paths';
import { PictureUploader } from '../../shared/ui/PictureUploader';
import { QueryView } from '../../shared/ui/QueryView';
import { submitAdvanced, verificationStatusQuery } from './api';
import { StateCard } from './StateCard';
import '../../shared/ui/form.css';
import './verification.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';
import { useSubmitVerification } from './useSubmitVerification';

type Values = Partial<RealName2Body>;
const PHOTOS = ['front', 'back', 'holding'] as const;

/** pages/verification/advanced: three photos of the ID, after basic verification (spec §4). */
export default function VerificationAdvancedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useQuery(verificationStatusQuery());
  const [form] = Form.useForm<Values>();

  const mutation = useSubmitVerification(submitAdvanced);

  return (
    <QueryView query={status} loading="spinner">
      {(s) => {
        if (s.verification !== 'verified') {
          return (
            <div className="v-verification">
              <section className="v-verification-state v-verification-state--none" role="alert">
                <div>
                  <strong>{t('kyc.basicFirst')}</strong>
                  <p>{t('kyc.basicFirstHint')}</p>
                </div>
              </section>
              <Button block color="primary" size="large" onClick={() => navigate(paths.verificationBasic)}>
                {t('kyc.goBasic')}
              </Button>
            </div>
          );
        }
        if (!s.can_submit_advanced) {
          return (
            <div className="v-verification">
              <StateCard state={s.advanced_verification} submission={s.advanced} />
            </div>
          );
        }

        const onFinish = (v: Values) => {
          if (!v.front || !v.back || !v.holding) return;
          mutation.mutate({ front: v.front, back: v.back, holding: v.holding });
        };

        return (
          <div className="v-verification">
            {s.advanced_verification === 'rejected' && <StateCard state="rejected" submission={s.advanced} />}
            <p className="v-verification__lead">{t('kyc.photosLead')}</p>
            <SubmitForm form={form} onFinish={onFinish} pending={mutation.isPending} submit={t('kyc.submit')}>
              {PHOTOS.map((p) => (
                <Form.Item
                  key={p}
                  name={p}
                  label={t(`kyc.photo.${p}`)}
                  rules={[{ required: true, message: t(`kyc.photoRequired.${p}`) }]}
                  className="v-form__plain"
                >
                  <PictureUploader label={t('kyc.upload')} />
                </Form.Item>
              ))}
            </SubmitForm>
            <p className="v-verification__note">{t('kyc.privacy')}</p>
          </div>
        );
      }}
    </QueryView>
  );
}
