import type { PhysicalStore } from "../../api/types";

/** The favourites list after toggling `store`: added to the front, or removed. */
export function toggledFavorites(list: readonly PhysicalStore[], store: PhysicalStore): PhysicalStore[] {
  return list.some((s) => s.id === store.id) ? list.filter((s) => s.id !== store.id) : [store, ...list];
}

export const ADD_FAVORITE_ERROR = "There is some error adding store to favorites";
export const REMOVE_FAVORITE_ERROR = "There is some error removing store from favorites";
