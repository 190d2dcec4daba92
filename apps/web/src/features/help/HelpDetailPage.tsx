import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { currentLang } from '../../shared/i18n';
import { paths } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { QueryView } from '../../shared/ui/QueryView';
import { articleQuery } from './api';
import './help.css';

/** pages/help-center/detail?id=<id or slug>: one common question, paragraphs split by blank lines. */
export default function HelpDetailPage() {
  const { t } = useTranslation();
  const id = (useSearchParams()[0].get('id') ?? '').trim();
  const article = useQuery({ ...articleQuery(id), enabled: id !== '' });
  if (!id) return <EmptyState text={t('common.noData')} />;
  return (
    <QueryView query={article} loading="spinner">
      {(a) => (
        <article className="v-help-article" lang={a.lang === currentLang() ? undefined : a.lang}>
          <h1 className="v-help-article__title">{a.title}</h1>
          {a.body.split(/\n\s*\n/).map((p, i) => (
            // paragraphs of stored text: their order is their identity
            // biome-ignore lint/suspicious/noArrayIndexKey: the text has no other key
            <p key={i}>{p}</p>
          ))}
          <footer className="v-help-article__foot">
            <Link to={paths.helpCenter}>{t('help.more')}</Link>
            <Link to={paths.chat}>{t('help.stillNeedHelp')}</Link>
          </footer>
        </article>
      )}
    </QueryView>
  );
}
