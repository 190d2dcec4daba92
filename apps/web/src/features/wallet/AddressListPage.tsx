import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { href, paths } from '../../shared/paths';
import { QueryView } from '../../shared/ui/QueryView';
import { addressesQuery } from './api';
import { CoinBadge } from './components/CoinRow';
import './wallet.css';
import './components/coin-row.css';
import './components/records.css';

/** pages/user/address/index: the user's withdrawal address book. */
export default function AddressListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useQuery(addressesQuery());

  return (
    <div className="v-wallet-page">
      <QueryView query={list} isEmpty={(l) => l.length === 0}>
        {(addresses) => (
          <ul className="v-wallet-records">
            {addresses.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  className="v-wallet-tile v-wallet-record v-wallet-record--link v-wallet-address-row"
                  onClick={() => navigate(href('address', { id: a.id }))}
                >
                  <CoinBadge symbol={a.symbol} />
                  <span className="v-wallet-address-row__main">
                    <strong>
                      {a.symbol} <small className="v-wallet-record__chain">{a.chain}</small>
                      {a.remark && <small className="v-wallet-address-row__remark">{a.remark}</small>}
                    </strong>
                    <span className="v-wallet-mono v-wallet-break">{a.address}</span>
                  </span>
                  <RightOutline className="v-wallet-coin__chevron" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <div className="v-wallet-actions">
        <Button block color="primary" size="large" onClick={() => navigate(paths.addressCreate)}>
          {t('address.add')}
        </Button>
      </div>
    </div>
  );
}
