import type { MarketTicker } from '@verdant/api';
import { NavBarAction } from '../../../shared/ui/NavBarAction';
import { useToggleFavourite } from '../favourites';
import { FavouriteStar } from './FavouriteStar';

/**
 * The chart page's star in the navigation bar. Its own chunk: adding a favourite brings the
 * dialog and the toast, which the chart page's first paint does not need.
 */
export default function FavouriteAction({ market }: { market: MarketTicker }) {
  const toggle = useToggleFavourite();
  return (
    <NavBarAction>
      <FavouriteStar
        on={market.favourite}
        name={market.name}
        onToggle={() => void toggle(market.symbol, !market.favourite)}
      />
    </NavBarAction>
  );
}
