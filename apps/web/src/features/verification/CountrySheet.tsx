import type { AreaCode } from '@verdant/api';
import { List, Popup, SearchBar } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../shared/ui/EmptyState';

interface Props {
  visible: boolean;
  countries: AreaCode[];
  value?: string;
  onSelect: (iso: string) => void;
  onClose: () => void;
}

/** The country that issued the ID, searchable by name or ISO letters. */
export function CountrySheet({ visible, countries, value, onSelect, onClose }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const unique = useMemo(() => {
    const seen = new Set<string>();
    return countries.filter((c) => {
      if (seen.has(c.country)) return false;
      seen.add(c.country);
      return true;
    });
  }, [countries]);
  const q = search.trim().toLowerCase();
  const shown = q
    ? unique.filter((c) => c.name.toLowerCase().includes(q) || c.country.toLowerCase() === q)
    : unique;

  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="v-verification-sheet"
      destroyOnClose
    >
      <div className="v-verification-sheet__head">
        <strong>{t('kyc.chooseCountry')}</strong>
        <SearchBar placeholder={t('auth.searchCountry')} value={search} onChange={setSearch} />
      </div>
      <div className="v-verification-sheet__list">
        {shown.length === 0 ? (
          <EmptyState text={t('common.noData')} />
        ) : (
          <List>
            {shown.map((c) => (
              <List.Item
                key={c.country}
                arrowIcon={false}
                extra={
                  c.country === value ? <CheckOutline className="v-verification-sheet__check" /> : c.country
                }
                onClick={() => {
                  onSelect(c.country);
                  onClose();
                }}
              >
                {c.name}
              </List.Item>
            ))}
          </List>
        )}
      </div>
    </Popup>
  );
}
