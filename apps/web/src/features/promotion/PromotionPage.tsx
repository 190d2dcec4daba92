import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReferralInvite, ReferralRebate, ReferralReferee } from '@verdant/api';
import { Button, Popup, Tabs, Toast } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../shared/clipboard';
import { formatTime } from '../../shared/datetime';
import { formatAmount } from '../../shared/money';
import { PageLoading } from '../../shared/ui/PageLoading';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryFallback, QueryView } from '../../shared/ui/QueryView';
import {
  absolute,
  inviteQuery,
  percent,
  posterQuery,
  rankingQuery,
  rebatesQuery,
  refereesQuery,
  savePoster,
  shareQuery,
} from './api';
import '../../shared/ui/card.css';
import './promotion.css';

/** USDT valuations are shown with USDT's places. */
const USDT_PLACES = 6;

function useCopy() {
  const { t } = useTranslation();
  return async (text: string) => {
    const ok = await copyText(text);
    // spec §8: "Copy failed, please copy manually" when the browser refuses
    Toast.show(ok ? { icon: 'success', content: t('common.copied') } : { content: t('common.copyFailed') });
  };
}

function CopyRow({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  const { t } = useTranslation();
  const copy = useCopy();
  return (
    <div className="v-promotion-copy">
      <span className="v-promotion-copy__label">{label}</span>
      <span
        className={mono ? 'v-promotion-copy__value v-promotion-copy__value--mono' : 'v-promotion-copy__value'}
      >
        {value}
      </span>
      <button
        type="button"
        className="v-promotion-copy__button"
        aria-label={`${t('promotion.copy')} ${label}`}
        onClick={() => void copy(value)}
      >
        <FileOutline />
      </button>
    </div>
  );
}

/** The poster in a sheet: shown from the server's picture, saved as PNG, or an error. */
function PosterSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const poster = useQuery({ ...posterQuery(i18n.language), enabled: open });
  const [saving, setSaving] = useState(false);
  const [url, setUrl] = useState<string | null>(null);

  // the picture's address lives as long as the blob it shows
  useEffect(() => {
    if (!poster.data) return;
    const u = URL.createObjectURL(poster.data);
    setUrl(u);
    return () => {
      URL.revokeObjectURL(u);
      setUrl(null);
    };
  }, [poster.data]);
  const state = { url, failed: poster.isError && !poster.data };

  const save = async () => {
    if (!state.url) return;
    setSaving(true);
    try {
      await savePoster(state.url, 'verdant-invitation.png');
      Toast.show({ icon: 'success', content: t('promotion.saved') });
    } catch {
      Toast.show({ content: t('promotion.saveFailed') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} bodyClassName="v-promotion-poster">
      <h2 className="v-promotion-poster__title">{t('promotion.poster')}</h2>
      {state.failed ? (
        <div className="v-promotion-poster__failed" role="alert">
          <span>{t('promotion.posterFailed')}</span>
          <Button size="small" onClick={() => void poster.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : state.url ? (
        <img className="v-promotion-poster__img" src={state.url} alt={t('promotion.posterAlt')} />
      ) : (
        <PageLoading />
      )}
      <div className="v-promotion-poster__actions">
        <Button block color="primary" disabled={!state.url} loading={saving} onClick={() => void save()}>
          {t('promotion.savePoster')}
        </Button>
        <Button block onClick={onClose}>
          {t('common.close')}
        </Button>
      </div>
    </Popup>
  );
}

function Summary({ invite }: { invite: ReferralInvite }) {
  const { t } = useTranslation();
  const share = useQuery(shareQuery());
  const copy = useCopy();
  const [poster, setPoster] = useState(false);
  const link = absolute(invite.link);

  const onShare = async () => {
    const text = share.data?.text ?? '';
    // the Web Share API where the phone has it; elsewhere the link is copied
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('promotion.title'), text, url: link });
        return;
      } catch (e) {
        if ((e as Error).name === 'AbortError') return;
      }
    }
    await copy(text ? `${text} ${link}` : link);
  };

  const stat = (label: string, value: string) => (
    <div>
      <span>{value}</span>
      <small>{label}</small>
    </div>
  );

  return (
    <>
      <section className="v-card v-promotion-summary" aria-label={t('promotion.myCode')}>
        <CopyRow label={t('promotion.myCode')} value={invite.invite_code} mono />
        <CopyRow label={t('promotion.link')} value={link} />
        <div className="v-promotion-summary__actions">
          <Button size="small" color="primary" onClick={() => void onShare()}>
            {t('promotion.share')}
          </Button>
          <Button size="small" fill="outline" onClick={() => setPoster(true)}>
            {t('promotion.poster')}
          </Button>
        </div>
      </section>
      <section className="v-card-report v-promotion-stats" aria-label={t('promotion.stats')}>
        {stat(t('promotion.promoted'), String(invite.promoted_count))}
        {stat(t('promotion.totalEarnings'), `${formatAmount(invite.total_earnings, USDT_PLACES)} USDT`)}
        {stat(t('promotion.pendingPayout'), `${formatAmount(invite.pending_payout, USDT_PLACES)} USDT`)}
        {stat(t('promotion.rate'), `${percent(invite.rate)}%`)}
        {stat(
          t('promotion.exclusive'),
          invite.exclusive ? t('promotion.exclusiveYes') : t('promotion.exclusiveNo'),
        )}
        {stat(t('promotion.authorisationCode'), invite.authorisation_code ?? '—')}
      </section>
      <PosterSheet open={poster} onClose={() => setPoster(false)} />
    </>
  );
}

function Ranking() {
  const { t } = useTranslation();
  const q = useQuery(rankingQuery());
  return (
    <QueryView query={q} isEmpty={(d) => d.list.length === 0} emptyText={t('promotion.noRanking')}>
      {(d) => (
        <ol className="v-promotion-list" aria-label={t('promotion.ranking')}>
          {d.list.map((r) => (
            <li key={r.rank} className="v-promotion-row">
              <span className={r.rank <= 3 ? 'v-promotion-rank v-promotion-rank--top' : 'v-promotion-rank'}>
                {r.rank}
              </span>
              <span className="v-promotion-row__main">{r.account}</span>
              <span className="v-promotion-row__amount">{formatAmount(r.rebate, USDT_PLACES)} USDT</span>
            </li>
          ))}
        </ol>
      )}
    </QueryView>
  );
}

function RefereeRow({ r }: { r: ReferralReferee }) {
  const { t } = useTranslation();
  return (
    <li className="v-promotion-row">
      <span className="v-promotion-row__main">
        {r.account}
        <small>
          {formatTime(r.registered_at)} · {r.verified ? t('promotion.verified') : t('promotion.notVerified')}
        </small>
      </span>
      <span className="v-promotion-row__amount">{formatAmount(r.rebate, USDT_PLACES)} USDT</span>
    </li>
  );
}

function Referees() {
  const { t } = useTranslation();
  const q = useQuery(refereesQuery());
  return (
    <QueryView query={q} isEmpty={(d) => d.list.length === 0} emptyText={t('promotion.noReferees')}>
      {(d) => (
        <ul className="v-promotion-list" aria-label={t('promotion.referees')}>
          {d.list.map((r) => (
            <RefereeRow key={`${r.account}-${r.registered_at}`} r={r} />
          ))}
        </ul>
      )}
    </QueryView>
  );
}

function RebateRow({ r }: { r: ReferralRebate }) {
  const { t } = useTranslation();
  return (
    <li className="v-promotion-row">
      <span className="v-promotion-row__main">
        {t(`promotion.kind.${r.kind}`)} · {r.referee}
        <small>
          {formatTime(r.created_at)} ·{' '}
          {t('promotion.feeAt', { fee: r.fee, currency: r.currency, rate: percent(r.rate) })}
        </small>
      </span>
      <span className="v-promotion-row__amount v-promotion-row__amount--up">
        +{r.amount} {r.currency}
      </span>
    </li>
  );
}

function Rebates() {
  const { t } = useTranslation();
  const q = useQuery(rebatesQuery());
  return (
    <QueryView query={q} isEmpty={(d) => d.list.length === 0} emptyText={t('promotion.noRebates')}>
      {(d) => (
        <ul className="v-promotion-list" aria-label={t('promotion.rebates')}>
          {d.list.map((r) => (
            <RebateRow key={r.id} r={r} />
          ))}
        </ul>
      )}
    </QueryView>
  );
}

/** pages/promotion/index: the user's code and link, poster, ranking, referees and rebate records. */
export default function PromotionPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const invite = useQuery(inviteQuery());
  const [tab, setTab] = useState('ranking');
  return (
    <PullToRefresh
      onRefresh={() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: ['promotion'] }),
          queryClient.invalidateQueries({ queryKey: ['user', 'promotion'] }),
        ])
      }
    >
      <div className="v-card-page v-promotion">
        {invite.data === undefined ? (
          <QueryFallback query={invite} rows={3} />
        ) : (
          <Summary invite={invite.data} />
        )}
        <Tabs activeKey={tab} onChange={setTab} className="v-promotion-tabs">
          <Tabs.Tab key="ranking" title={t('promotion.ranking')}>
            <Ranking />
          </Tabs.Tab>
          <Tabs.Tab key="referees" title={t('promotion.referees')}>
            <Referees />
          </Tabs.Tab>
          <Tabs.Tab key="rebates" title={t('promotion.rebates')}>
            <Rebates />
          </Tabs.Tab>
        </Tabs>
      </div>
    </PullToRefresh>
  );
}
