import type { AreaCode } from '@verdant/api';
import { List, Popup, SearchBar } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState';

interface Props {
  visible: boolean;
  codes: AreaCode[];
  value: string;
  onSelect: (code: string) => void;
  onClose: () => void;
}

/** Bottom sheet of dialling codes, searchable by country name, code or ISO letters. */
export function AreaCodePicker({ visible, codes, value, onSelect, onClose }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase().replace(/^\+/, '');
    if (!q) return codes;
    return codes.filter(
      (c) => c.name.toLowerCase().includes(q) || c.area_code.startsWith(q) || c.country.toLowerCase() === q,
    );
  }, [codes, search]);

  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="v-area-sheet"
      destroyOnClose
    >
      <div className="v-area-sheet__head">
        <strong>{t('auth.selectAreaCode')}</strong>
        <SearchBar placeholder={t('auth.searchCountry')} value={search} onChange={setSearch} />
      </div>
      <div className="v-area-sheet__list">
        {shown.length === 0 ? (
          <EmptyState text={t('common.noData')} />
        ) : (
          <List>
            {shown.map((c) => (
              <List.Item
                key={`${c.country}-${c.area_code}`}
                onClick={() => {
                  onSelect(c.area_code);
                  onClose();
                }}
                arrowIcon={false}
                extra={
                  <span className="v-area-sheet__code">
                    +{c.area_code}
                    {c.area_code === value && <CheckOutline className="v-area-sheet__check" />}
                  </span>
                }
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
