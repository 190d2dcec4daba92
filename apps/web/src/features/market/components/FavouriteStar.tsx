import { StarFill, StarOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import './favourite-star.css';

export function FavouriteStar({ on, name, onToggle }: { on: boolean; name: string; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`v-market-star${on ? ' v-market-star--on' : ''}`}
      aria-pressed={on}
      aria-label={t(on ? 'market.removeFavourite' : 'market.addFavourite', { name })}
      onClick={(e) => {
        e.stopPropagation();
        onToggle();
      }}
    >
      {on ? <StarFill /> : <StarOutline />}
    </button>
  );
}
