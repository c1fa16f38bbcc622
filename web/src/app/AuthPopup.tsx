import { Dialog } from "../components/ui/dialog";
import { authPopupViews } from "../features/auth/popupViews";
import { FavoritesView } from "../features/favorites/FavoritesView";
import { usePopup, type PopupView } from "../lib/session";
import type { ComponentType } from "react";

const views: Record<PopupView, ComponentType> = { ...authPopupViews, favorites: FavoritesView };

/** The auth popup (its own chunk): the current view in a dialog; closing resets to sign-in. */
export default function AuthPopup() {
  const { view, closePopup } = usePopup();
  const View = views[view];
  return (
    <Dialog onClose={closePopup}>
      <View />
    </Dialog>
  );
}
