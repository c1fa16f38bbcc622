import { Heart } from "lucide-react";
import { useNavigate, useSearchParams } from "react-router";
import { Stars } from "../../components/Stars";
import { StoreImage } from "../../components/StoreImage";
import { StoreStatus } from "../../components/StoreStatus";
import { DialogTitle } from "../../components/ui/dialog";
import { townLine } from "../../lib/address";
import { useMinuteTick } from "../../lib/useMinuteTick";
import { useFavorites, usePopup } from "../../lib/session";

export const NO_FAVORITES = "There is no favorite stores";

/**
 * The auth popup's favorites view: each favourite with image, name, stars, an "Open now" or
 * "Closed" badge with what comes next, and a heart that removes it. Choosing one closes the popup and selects the
 * store on the locator (through the address: /?store=ID, keeping the current search).
 */
export function FavoritesView() {
  const { favorites, removeFavorite } = useFavorites();
  const { closePopup } = usePopup();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const now = useMinuteTick();

  const open = (id: number) => {
    closePopup();
    const next = new URLSearchParams(window.location.pathname === "/" ? params : undefined);
    next.set("store", String(id));
    void navigate(`/?${next.toString()}`);
  };

  return (
    <div>
      <DialogTitle>Favorites</DialogTitle>
      {favorites.length === 0 ? (
        <p className="mt-4 text-gray-700">{NO_FAVORITES}</p>
      ) : (
        <ul aria-label="Favorite stores" className="mt-4 divide-y divide-gray-200">
          {favorites.map((store) => {
            return (
              <li key={store.id} className="flex items-center gap-3 py-3">
                <button type="button" onClick={() => open(store.id)} className="flex min-w-0 flex-1 items-center gap-3 rounded-md text-left hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-emerald-700">
                  <StoreImage src={store.image} alt="" sizes="56px" className="size-14 shrink-0 rounded-md bg-gray-100 object-cover" />
                  <span className="flex min-w-0 flex-col gap-1">
                    <span className="truncate font-medium text-gray-900">{store.name}</span>
                    {/* Where it is: two favourites of one chain differ by their town (issue #39, m13). */}
                    {townLine(store) && <span className="truncate text-sm text-gray-700">{townLine(store)}</span>}
                    <Stars rating={store.average_rating} count={store.review_count} />
                    <StoreStatus store={store} now={now} openText="Open now" className="self-start" />
                  </span>
                </button>
                <button
                  type="button"
                  aria-label={`Remove ${store.name} from favorites`}
                  onClick={() => removeFavorite(store)}
                  className="rounded-md p-2 text-rose-600 hover:bg-rose-50 focus-visible:outline-2 focus-visible:outline-emerald-700"
                >
                  <Heart aria-hidden="true" className="size-5 fill-rose-600" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
